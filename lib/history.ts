/**
 * The history of a lab: an ordered log of everything that happened, in the
 * style of Jepsen. Times `t` are milliseconds on the lab's monotonic clock
 * (performance.now() relative to the lab's start), never wall-clock time, so
 * a clock jump in the simulation cannot reorder the record.
 *
 * Operations that take time are written as two events: an `invoke` and its
 * completion (`ok`, `fail`, or `info` = indeterminate: we do not know whether
 * it took effect, e.g. a command that timed out or whose client crashed).
 */
import type { FaultOp } from './faults/catalogue';
import type { Words } from './words';
import type { InterventionAction, InterventionCause, LinkCutMode, NodeRole, NodeState, Persistence } from './cluster';

/** A nemesis event's operation: a fault of the catalogue (lib/faults/catalogue.ts). */
export type NemesisOp = FaultOp;

export type Scalar = string | number | boolean | null;

/** A Redis reply, made JSON-safe (Buffers as strings, errors as `{ error }`). */
export type ReplyJson = Scalar | ReplyJson[];

interface Base {
  /** Position in the lab's history, from 0, without gaps. */
  seq: number;
  /** Lab clock, ms. */
  t: number;
  /** The run this event belongs to, if any (nemesis ops outside a run have none). */
  runId?: string;
  /**
   * Set when learner-sized content of this event (command arguments, a reply, a console line, a
   * store value) was kept only as a prefix (see server/sandbox/worker/bound-event.ts): the UTF-8
   * bytes that content had in full. Each cut string says so itself ("…⟨1048576 B #…⟩").
   */
  fullBytes?: number;
}

export interface NemesisEvent extends Base {
  type: 'nemesis';
  op: NemesisOp;
  phase: 'invoke' | 'ok' | 'fail';
  /** Who is hit, in words: "Node 3", "Client 1 → Node 2", "Node 1 → Node 2 replication". */
  target: string;
  node?: number;
  client?: number;
  args: Record<string, Scalar>;
  /** For `fail`: why it was refused or failed. For `ok`: what it did, in words. */
  detail?: string;
  /** `detail` as data, when the server worded it (a refusal, or what an operation did): a page writes it in its language. */
  detailWords?: Words;
}

export interface NodeStateEvent extends Base {
  type: 'node';
  node: number;
  state: NodeState;
  role: NodeRole;
  persistence: Persistence;
  /** Why it changed: "killed (SIGKILL)", "exited with code 1", "restarted", "promoted to master". */
  reason: string;
  /** `reason` as data (absent in run files from before): a page writes it in its language. */
  reasonWords?: Words;
}

/**
 * The lab stepped in on a node a learner's code was harming (the node
 * guard): a script that did not end was killed, or the node was restarted
 * (a script that wrote cannot be killed; Lua's memory is outside maxmemory).
 * A restart also shows as the node's own down and up events.
 */
export interface NodeGuardEvent extends Base {
  type: 'guard';
  node: number;
  action: InterventionAction;
  cause: InterventionCause;
  /** In a learner's words, as the node's card shows it. */
  detail: string;
  /** `detail` as data (absent in run files from before): a page writes it in its language. */
  detailWords?: Words;
}

export interface RedisInvokeEvent extends Base {
  type: 'redis';
  phase: 'invoke';
  opId: number;
  client: number;
  node: number;
  command: string;
  args: string[];
  /** Set when the argument list itself was cut: how many arguments the command really had. */
  argCount?: number;
}

export interface RedisCompleteEvent extends Base {
  type: 'redis';
  phase: 'ok' | 'fail' | 'info';
  opId: number;
  client: number;
  node: number;
  command: string;
  reply?: ReplyJson;
  error?: string;
}

export interface JobEvent extends Base {
  type: 'job';
  phase: 'enter' | 'exit';
  client: number;
  /** The protected job's name; mutual exclusion is checked per job. */
  job: string;
  /** Per-job execution number, counted from 1 on enter. */
  execution: number;
}

export interface StoreWriteEvent extends Base {
  type: 'store';
  client: number;
  key: string;
  value: string;
  /** The fencing token offered, or null for an unfenced write. */
  token: number | null;
  accepted: boolean;
  /** The highest token the store had accepted before this write. */
  highest: number | null;
  reason?: string;
}

export interface ClientEvent extends Base {
  type: 'client';
  client: number;
  event: 'start' | 'exit' | 'error' | 'pause' | 'resume' | 'crash' | 'skew';
  detail?: string;
  /** `detail` as data when it is the lab's own sentence (a limit the client broke), not the program's error. */
  detailWords?: Words;
  /** For a pause with a planned length; for a skew, the offset. */
  durationMs?: number;
  /**
   * A pause or resume that is the run's own stop at a breakpoint (the client frozen, then let go by Resume, Step
   * or its own resume button), not a fault: the timeline draws it as its own kind (lib/lock-ops/stops.ts).
   * Absent in runs from before, which read as pauses.
   */
  breakpoint?: true;
}

export interface ConsoleEvent extends Base {
  type: 'console';
  client: number;
  level: 'log' | 'info' | 'warn' | 'error';
  /** English: logs, run files, and what a program printed (never translated). */
  text: string;
  /** The lab's own note (client 0) as data, so a page writes it in its language; absent for a program's output and in older runs. */
  words?: Words;
}

export interface LockVote {
  node: number;
  ok: boolean;
  error?: string;
}

/** The meaning the `redlock` module (or a lesson's helper) adds on top of raw commands. */
export interface LockEvent extends Base {
  type: 'lock';
  client: number;
  event: 'attempt' | 'acquired' | 'failed' | 'extended' | 'extend-failed' | 'released' | 'release-failed';
  resources: string[];
  token: string;
  attempt?: number;
  votes?: LockVote[];
  quorum?: number;
  ttlMs?: number;
  /** Time the holder may assume it holds the lock, from the end of the acquire. */
  validityMs?: number;
  detail?: string;
}

export interface ScenarioEvent extends Base {
  type: 'scenario';
  step: string;
  detail: string;
  /** `detail` as data (runNotes.*): the timeline writes it in the page's language. */
  detailWords?: Words;
}

export type HistoryEvent =
  | NemesisEvent
  | NodeStateEvent
  | NodeGuardEvent
  | RedisInvokeEvent
  | RedisCompleteEvent
  | JobEvent
  | StoreWriteEvent
  | ClientEvent
  | ConsoleEvent
  | LockEvent
  | ScenarioEvent;

/** Distributes Omit over the union so each variant keeps its own fields. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What a producer hands to the history; the history stamps seq and t. */
export type HistoryInput = DistributiveOmit<HistoryEvent, 'seq' | 't'> & { t?: number };

export type { LinkCutMode };
