/**
 * Who voted for whom: the vocabulary of a multi-node lock's votes, read off a
 * run's history (derive.ts). A vote is one client's acquire command (`SET … NX`,
 * or the `redlock` module's acquire script) on one node, and that node's answer.
 */

import type { VoteAnswer as NodeAnswer } from '../lock-ops/commands';

/** A node's answer to one acquire (lib/lock-ops/commands.ts), or none yet (`pending`). */
export type VoteAnswer = NodeAnswer | 'pending';

export interface Vote {
  client: number;
  node: number;
  key: string;
  token: string;
  attemptId: number;
  /** When the command was sent, lab clock. */
  sentT: number;
  /** When the answer came; null while it has not (at the cursor). */
  t: number | null;
  answer: VoteAnswer;
  /** The error's words for `error` and `timeout` ("connect ECONNREFUSED …", "Command timed out"). */
  error?: string;
}

/** One client's round of acquires on every node, and what came of it. */
export interface AcquireAttempt {
  id: number;
  client: number;
  key: string;
  token: string;
  /** The client's n-th attempt on this key (the `redlock` module's own number when it says). */
  number: number;
  startT: number;
  /** When the client decided (the `redlock` module says; hand-written code: entering its job, or trying again). */
  decidedT: number | null;
  outcome: 'acquired' | 'failed' | 'collecting';
  /** The votes, one per node (its last answer in this attempt), by node. */
  votes: Vote[];
  /** Nodes that said OK. */
  granted: number[];
  /** The quorum the client counted to, when its library said (hand-written code does not). */
  quorum: number | null;
}

/** A client holding the lock, as it believes: from its acquire until it releases or its lock lapses. */
export interface Holding {
  client: number;
  key: string;
  token: string;
  attemptId: number;
  /** The nodes that granted this acquire. */
  nodes: number[];
  from: number;
  /** Null: still held where the shown history ends. */
  to: number | null;
  endedBy: 'released' | 'expired' | null;
  /** `nodes` is a true majority of the cluster. */
  majority: boolean;
}

export type ForgetCause = 'restarted-empty' | 'clock-jump' | 'failover';

/** A node that lost what it held (and so what it had voted) without anyone releasing it. */
export interface Forgetting {
  node: number;
  t: number;
  cause: ForgetCause;
}

/** A node's grant of the key to one token, as a span on that node's row. */
export interface NodeGrant {
  node: number;
  client: number;
  key: string;
  token: string;
  attemptId: number;
  from: number;
  /** Null: still granted where the shown history ends. */
  to: number | null;
  endedBy: 'released' | 'expired' | 'forgot' | null;
  /** When the node forgot it while its holder still counted it: the holder's count goes on until `ghostTo` (null: the end). */
  ghostTo?: number | null;
}

/** A node that said OK to a second client while the first still counted its vote. */
export interface DoubleVote {
  node: number;
  key: string;
  first: { client: number; token: string; attemptId: number; t: number };
  second: { client: number; token: string; attemptId: number; t: number };
  /** Why the node could: it forgot the first vote (null: the history does not say). */
  forgot: Forgetting | null;
}

/** Two clients holding the same lock at once, each with the nodes that voted for it. */
export interface TwoHolders {
  key: string;
  first: Holding;
  second: Holding;
  from: number;
  to: number | null;
  /** Nodes in both holders' sets. */
  shared: number[];
  /** The double votes behind the shared nodes. */
  doubleVotes: DoubleVote[];
}

/** A node down (killed or crashed) from `from` until it came back at `to` (null: still down). */
export interface NodeDown {
  node: number;
  from: number;
  to: number | null;
}

export interface VoteAnalysis {
  /** The cluster's nodes, by id. */
  nodes: number[];
  /** Votes that make a true majority of `nodes`. */
  majority: number;
  attempts: AcquireAttempt[];
  holdings: Holding[];
  grants: NodeGrant[];
  forgettings: Forgetting[];
  downs: NodeDown[];
  doubleVotes: DoubleVote[];
  twoHolders: TwoHolders[];
  /** Where the shown history ends (the cursor, or its last event). */
  endT: number;
}
