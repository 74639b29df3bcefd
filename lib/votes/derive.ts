/**
 * History → who voted for whom. Pure: the page derives it from the events up
 * to the time-travel cursor, so the view follows the cursor, and a run opened
 * from a file shows the same.
 *
 * A vote is one node asked by an acquire, as the lock operations read it
 * (lib/lock-ops: `SET key token … NX`, SETNX or an acquire script on a node;
 * the `redlock` module's commands while its attempt is open, its EVALSHA
 * answered NOSCRIPT and the EVAL after it being one vote; votes only its lock
 * event names). OK is a grant, nil a refusal (the node already held the key),
 * a failed command an error, a command of unknown outcome a timeout. fold.ts
 * follows the history; this file says what it shows: grants, holdings, double
 * votes and two holders at once.
 */
import type { HistoryEvent } from '../history';
import { acquireRequest } from '../lock-ops/commands';
import { VoteFold, type GrantState, type HoldingState } from './fold';
import type { AcquireAttempt, DoubleVote, Forgetting, Holding, NodeGrant, TwoHolders, VoteAnalysis } from './types';

export interface VoteOptions {
  /** How many nodes the cluster has (1..n); else the nodes the history names. */
  nodes?: number;
  /** Where the shown history ends (the time-travel cursor); else its last event. */
  endT?: number;
}

export function deriveVotes(events: readonly HistoryEvent[], options: VoteOptions = {}): VoteAnalysis {
  const fold = new VoteFold();
  for (const event of events) fold.observe(event);
  const endT = options.endT ?? fold.lastT;
  const nodes = options.nodes !== undefined ? Array.from({ length: options.nodes }, (_, i) => i + 1) : [...fold.nodeIds].sort((a, b) => a - b);
  const majority = Math.floor(nodes.length / 2) + 1;
  lapseOpenGrants(fold, endT);
  const attempts: AcquireAttempt[] = fold.attempts.map((a) => {
    const votes = fold.votesOf(a);
    const { client, key, token } = a.acquire;
    return {
      id: a.id, client, key, token, number: a.number, startT: a.acquire.from, decidedT: a.decidedT, outcome: a.outcome,
      votes, granted: votes.filter((v) => v.answer === 'ok').map((v) => v.node), quorum: a.quorum,
    };
  });
  const holdings = toHoldings(fold.holdings.values(), fold.grants, attempts, majority, endT);
  const holdingOf = byClientToken(holdings);
  markGhosts(fold.grants, holdingOf);
  const doubleVotes = findDoubleVotes(fold.grants, fold.forgettings, holdingOf);
  const twoHolders = findTwoHolders(holdings, doubleVotes);
  const grants: NodeGrant[] = fold.grants.map(({ expiresAt: _expiresAt, ...g }) => g);
  return { nodes, majority, attempts, holdings, grants, forgettings: fold.forgettings, downs: fold.downs, doubleVotes, twoHolders, endT };
}

/** Grants still open: the model's entry says how long (an extension moved it); past it, the grant lapsed. */
function lapseOpenGrants(fold: VoteFold, endT: number): void {
  for (const g of fold.openGrants.values()) {
    const entry = fold.keyspace.entriesOf(g.node).get(g.key);
    const expiresAt = entry && entry.value === g.token ? entry.expiresAt : g.expiresAt;
    if (expiresAt <= endT) {
      g.to = expiresAt;
      g.endedBy = 'expired';
    }
  }
}

/** What each client believes it holds, until it released it or its lock lapsed. */
function toHoldings(states: Iterable<HoldingState>, grants: readonly GrantState[], attempts: readonly AcquireAttempt[], majority: number, endT: number): Holding[] {
  // Lookups by `client|token`: a long run has thousands of grants, so nothing here compares all pairs.
  const grantsOf = new Map<string, GrantState[]>();
  for (const g of grants) {
    const k = `${g.client}|${g.token}`;
    const list = grantsOf.get(k);
    if (list) list.push(g);
    else grantsOf.set(k, [g]);
  }
  const out: Holding[] = [];
  for (const h of states) {
    const attempt = attempts[h.attemptId];
    if (!attempt || attempt.granted.length === 0) continue;
    // Without the holder's own validity, its lock lapses when its first vote does.
    let lapse = h.validUntil ?? Infinity;
    if (h.validUntil === null) for (const g of grantsOf.get(`${h.client}|${h.token}`) ?? []) lapse = Math.min(lapse, g.expiresAt);
    let to: number | null = null;
    let endedBy: Holding['endedBy'] = null;
    if (h.releasedAt !== null && h.releasedAt <= lapse) {
      to = h.releasedAt;
      endedBy = 'released';
    } else if (lapse <= endT) {
      to = lapse;
      endedBy = 'expired';
    }
    out.push({ client: h.client, key: h.key, token: h.token, attemptId: h.attemptId, nodes: attempt.granted, from: h.from, to, endedBy, majority: attempt.granted.length >= majority });
  }
  return out.sort((a, b) => a.from - b.from);
}

type HoldingOf = (client: number, token: string) => Holding | undefined;

function byClientToken(holdings: readonly Holding[]): HoldingOf {
  const by = new Map(holdings.map((h) => [`${h.client}|${h.token}`, h]));
  return (client, token) => by.get(`${client}|${token}`);
}

/** Whether holding `h` still counts `node`'s vote at `t`. */
const countsAt = (h: Holding | undefined, node: number, t: number) => h !== undefined && h.nodes.includes(node) && (h.to === null || h.to > t);

/** A forgotten grant its holder still counts goes on as a ghost on the node's row. */
function markGhosts(grants: readonly GrantState[], holdingOf: HoldingOf): void {
  for (const g of grants) {
    if (g.endedBy !== 'forgot' || g.to === null) continue;
    const h = holdingOf(g.client, g.token);
    if (countsAt(h, g.node, g.to)) g.ghostTo = h?.to ?? null;
  }
}

/** Per node and key, in time order: each grant against the earlier ones a holder may still count (not released, holding not over). */
function findDoubleVotes(grants: readonly GrantState[], forgettings: readonly Forgetting[], holdingOf: HoldingOf): DoubleVote[] {
  const doubleVotes: DoubleVote[] = [];
  const counted = new Map<string, GrantState[]>();
  for (const second of grants) {
    const k = `${second.node}|${second.key}`;
    const earlier = (counted.get(k) ?? []).filter((first) => {
      const h = holdingOf(first.client, first.token);
      // Grants on a node come in time order: a holding over by now is over for every later grant too.
      return h === undefined ? first.to === null || first.to > second.from : h.to === null || h.to > second.from;
    });
    for (const first of earlier) {
      if (first.token === second.token || first.endedBy === 'released') continue;
      if (first.to !== null && first.to > second.from) continue;
      if (!countsAt(holdingOf(first.client, first.token), first.node, second.from)) continue;
      const forgot = first.endedBy === 'forgot' ? (forgettings.find((f) => f.node === first.node && f.t === first.to) ?? null) : null;
      doubleVotes.push({
        node: second.node, key: second.key, forgot,
        first: { client: first.client, token: first.token, attemptId: first.attemptId, t: first.from },
        second: { client: second.client, token: second.token, attemptId: second.attemptId, t: second.from },
      });
    }
    if (second.endedBy !== 'released') earlier.push(second);
    counted.set(k, earlier);
  }
  return doubleVotes;
}

/** A sweep in order of start: each holding against the earlier ones not yet over. */
function findTwoHolders(holdings: readonly Holding[], doubleVotes: readonly DoubleVote[]): TwoHolders[] {
  const twoHolders: TwoHolders[] = [];
  let active: Holding[] = [];
  for (const b of holdings) {
    active = active.filter((a) => a.to === null || a.to > b.from);
    for (const a of active) {
      if (a.key !== b.key || a.client === b.client) continue;
      const from = b.from;
      const to = a.to === null ? b.to : b.to === null ? a.to : Math.min(a.to, b.to);
      if (to !== null && to <= from) continue;
      const shared = a.nodes.filter((n) => b.nodes.includes(n));
      twoHolders.push({
        key: a.key, first: a, second: b, from, to, shared,
        doubleVotes: doubleVotes.filter((d) => shared.includes(d.node) && d.first.token === a.token && d.second.token === b.token),
      });
    }
    active.push(b);
  }
  return twoHolders;
}

/** Who holds the lock at `t`, as each holder believes. */
export function holdersAt(analysis: VoteAnalysis, t: number): Holding[] {
  return analysis.holdings.filter((h) => h.from <= t && (h.to === null || h.to > t));
}

/**
 * Whether a history has a lock taken by votes of several nodes (Redlock, by the
 * module or by hand): the vote view has something to show. Stops at the first sign.
 */
export function isMultiNodeLock(events: readonly HistoryEvent[]): boolean {
  const nodesAsked = new Map<string, number>();
  for (const event of events) {
    if (event.type === 'lock' && (event.votes?.length ?? 0) > 1) return true;
    if (event.type !== 'redis' || event.phase !== 'invoke') continue;
    const request = acquireRequest(event);
    if (request === null) continue;
    // One acquire (one token) asked of two nodes: a vote. The same client locking again on another node
    // after a failover is a new acquire (a new token), not a vote.
    const k = `${event.client}|${request.key}|${request.token}`;
    const first = nodesAsked.get(k);
    if (first === undefined) nodesAsked.set(k, event.node);
    else if (first !== event.node) return true;
  }
  return false;
}

/** How many nodes the run's cluster has: the highest node any event names (a cursor early in the run must not shrink the majority). */
export function clusterSize(events: readonly HistoryEvent[]): number {
  let size = 0;
  for (const event of events) {
    if (event.type === 'redis' || event.type === 'node' || event.type === 'guard') size = Math.max(size, event.node);
    else if (event.type === 'lock') for (const v of event.votes ?? []) size = Math.max(size, v.node);
  }
  return size;
}
