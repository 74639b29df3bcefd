/**
 * History → who voted for whom. Pure: the page derives it from the events up
 * to the time-travel cursor, so the view follows the cursor, and a run opened
 * from a file shows the same.
 *
 * A vote is read off the commands themselves, whatever library sent them:
 * - `SET key token … NX` (and SETNX) on a node is a vote request; OK is a
 *   grant, nil a refusal (the node already held the key), a failed command an
 *   error, a command of unknown outcome a timeout;
 * - the `redlock` module's acquire script (EVALSHA, then EVAL on NOSCRIPT) is
 *   one when its `attempt` lock event is open for that client and token; its
 *   `acquired` / `failed` events say what the client decided, with the quorum,
 *   and fill in votes whose command the history cannot name (an EVALSHA refused
 *   before any node had taught us its script).
 * Hand-written code says nothing of its decision: an attempt counts as
 * acquired when its client then enters its job, and as failed when the client
 * releases it or tries again first.
 *
 * What each node holds, and when it lets go — a release, its TTL, or a restart
 * that forgot everything — comes from the checker's keyspace model.
 */
import type { HistoryEvent, LockEvent, RedisCompleteEvent, RedisInvokeEvent } from '../history';
import { Keyspace, type KeyEntry, type KeyspaceObserver } from '../checker/keyspace';
import type { NodeStateEvent, NemesisEvent } from '../history';
import type {
  AcquireAttempt,
  DoubleVote,
  ForgetCause,
  Forgetting,
  Holding,
  NodeDown,
  NodeGrant,
  TwoHolders,
  Vote,
  VoteAnalysis,
} from './types';

export interface VoteOptions {
  /** How many nodes the cluster has (1..n); else the nodes the history names. */
  nodes?: number;
  /** Where the shown history ends (the time-travel cursor); else its last event. */
  endT?: number;
}

/** What the keyspace model tells us: a key removed, or a node that forgot what it held. */
type Notice =
  | { kind: 'removed'; node: number; key: string; token: string | null; by: number; t: number }
  | { kind: 'forgot'; node: number; t: number; cause: ForgetCause; lost: ReadonlyMap<string, KeyEntry> };

class Notices implements KeyspaceObserver {
  readonly list: Notice[] = [];
  restarted(node: number, lost: ReadonlyMap<string, KeyEntry>, _downAt: number, up: NodeStateEvent): void {
    this.list.push({ kind: 'forgot', node, t: up.t, cause: 'restarted-empty', lost: new Map(lost) });
  }
  clockJumped(node: number, expired: ReadonlyMap<string, KeyEntry>, event: NemesisEvent): void {
    this.list.push({ kind: 'forgot', node, t: event.t, cause: 'clock-jump', lost: expired });
  }
  promoted(_node: number, from: number, lost: ReadonlyMap<string, KeyEntry>, event: NodeStateEvent): void {
    this.list.push({ kind: 'forgot', node: from, t: event.t, cause: 'failover', lost });
  }
  removed(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, entry: KeyEntry): void {
    this.list.push({ kind: 'removed', node: invoke.node, key, token: entry.value, by: invoke.client, t: done.t });
  }
}

interface AttemptState extends Omit<AcquireAttempt, 'votes' | 'granted'> {
  byNode: Map<number, Vote>;
  source: 'redlock' | 'commands';
}

interface GrantState extends NodeGrant {
  expiresAt: number;
}

interface HoldingState {
  client: number;
  key: string;
  token: string;
  attemptId: number;
  from: number;
  releasedAt: number | null;
  /** The holder's own idea of when its lock lapses (the `redlock` module's validity, moved by extensions). */
  validUntil: number | null;
}

const NX = /^nx$/i;

export function deriveVotes(events: readonly HistoryEvent[], options: VoteOptions = {}): VoteAnalysis {
  const notices = new Notices();
  const keyspace = new Keyspace([notices]);
  const nodeIds = new Set<number>();
  const attempts: AttemptState[] = [];
  /** The redlock module's open attempt per `client|token`. */
  const lockAttempts = new Map<string, AttemptState>();
  /** Hand-written code's current attempt per `client|key`. */
  const rawAttempts = new Map<string, AttemptState>();
  const attemptCounts = new Map<string, number>();
  const ops = new Map<number, Vote>();
  /** An EVALSHA's arguments after the SHA, kept until its answer, to match the EVAL that may follow a NOSCRIPT. */
  const pendingArgs = new Map<number, string>();
  /** An EVALSHA answered NOSCRIPT, per `client|node`: the EVAL that follows is the same vote. */
  const noScript = new Map<string, { attempt: AttemptState; tail: string }>();
  const grants: GrantState[] = [];
  const openGrants = new Map<string, GrantState>(); // `node|key` → the grant the node holds
  const holdings = new Map<string, HoldingState>(); // `client|token`
  const forgettings: Forgetting[] = [];
  const downs: NodeDown[] = [];
  const openDowns = new Map<number, NodeDown>();

  const attemptById = (id: number) => attempts[id];

  const newAttempt = (client: number, key: string, token: string, t: number, source: AttemptState['source'], number?: number): AttemptState => {
    const countKey = `${client}|${key}`;
    const n = number ?? (attemptCounts.get(countKey) ?? 0) + 1;
    attemptCounts.set(countKey, Math.max(n, attemptCounts.get(countKey) ?? 0));
    const attempt: AttemptState = { id: attempts.length, client, key, token, number: n, startT: t, decidedT: null, outcome: 'collecting', quorum: null, byNode: new Map(), source };
    attempts.push(attempt);
    return attempt;
  };

  const decide = (attempt: AttemptState, outcome: 'acquired' | 'failed', t: number) => {
    if (attempt.outcome !== 'collecting') return;
    attempt.outcome = outcome;
    attempt.decidedT = t;
    if (outcome === 'acquired') {
      holdings.set(`${attempt.client}|${attempt.token}`, { client: attempt.client, key: attempt.key, token: attempt.token, attemptId: attempt.id, from: t, releasedAt: null, validUntil: null });
    }
  };

  const rawAttemptFor = (client: number, key: string, token: string, node: number, t: number): AttemptState => {
    const k = `${client}|${key}`;
    const current = rawAttempts.get(k);
    if (current && current.token === token && current.outcome === 'collecting' && !current.byNode.has(node)) return current;
    if (current) decide(current, 'failed', t);
    const attempt = newAttempt(client, key, token, t, 'commands');
    rawAttempts.set(k, attempt);
    return attempt;
  };

  const ask = (attempt: AttemptState, invoke: RedisInvokeEvent) => {
    const vote: Vote = { client: invoke.client, node: invoke.node, key: attempt.key, token: attempt.token, attemptId: attempt.id, sentT: invoke.t, t: null, answer: 'pending' };
    attempt.byNode.set(invoke.node, vote);
    ops.set(invoke.opId, vote);
  };

  const onInvoke = (invoke: RedisInvokeEvent) => {
    const command = invoke.command.toUpperCase();
    const args = invoke.args;
    if ((command === 'SET' && args.slice(2).some((a) => NX.test(a))) || command === 'SETNX') {
      const [key, token] = args;
      if (key === undefined || token === undefined) return;
      const open = lockAttempts.get(`${invoke.client}|${token}`);
      ask(open && open.outcome === 'collecting' ? open : rawAttemptFor(invoke.client, key, token, invoke.node, invoke.t), invoke);
      return;
    }
    if (command !== 'EVAL' && command !== 'EVALSHA') return;
    const numKeys = Number(args[1]);
    if (!Number.isInteger(numKeys) || numKeys < 1) return;
    const key = args[2];
    const token = args[2 + numKeys];
    if (key === undefined || token === undefined) return;
    const at = `${invoke.client}|${invoke.node}`;
    const retried = noScript.get(at);
    if (command === 'EVAL' && retried && retried.tail === args.slice(1).join('\u0000')) {
      noScript.delete(at);
      ask(retried.attempt, invoke);
      return;
    }
    const open = lockAttempts.get(`${invoke.client}|${token}`);
    if (open && open.outcome === 'collecting') {
      ask(open, invoke);
      return;
    }
    // A hand-written acquire script: one that sets with NX.
    const script = command === 'EVAL' ? (args[0] ?? '') : '';
    if (/call\(\s*['"]set['"]/i.test(script) && /['"]nx['"]/i.test(script)) ask(rawAttemptFor(invoke.client, key, token, invoke.node, invoke.t), invoke);
  };

  const closeGrant = (grant: GrantState, t: number, endedBy: NodeGrant['endedBy']) => {
    grant.to = t;
    grant.endedBy = endedBy;
    const k = `${grant.node}|${grant.key}`;
    if (openGrants.get(k) === grant) openGrants.delete(k);
  };

  const grant = (vote: Vote, t: number) => {
    const k = `${vote.node}|${vote.key}`;
    const previous = openGrants.get(k);
    if (previous) {
      // The node granted again while the model thought it still held the key: the old grant had lapsed, or we cannot say.
      const lapsed = previous.expiresAt <= t;
      closeGrant(previous, lapsed ? previous.expiresAt : t, lapsed ? 'expired' : null);
    }
    const entry = keyspace.entriesOf(vote.node).get(vote.key);
    const expiresAt = entry && entry.value === vote.token ? entry.expiresAt : Infinity;
    const g: GrantState = { node: vote.node, client: vote.client, key: vote.key, token: vote.token, attemptId: vote.attemptId, from: t, to: null, endedBy: null, expiresAt };
    grants.push(g);
    openGrants.set(k, g);
  };

  const onComplete = (done: RedisCompleteEvent) => {
    const vote = ops.get(done.opId);
    if (!vote) return;
    ops.delete(done.opId);
    if (done.phase === 'fail' && /NOSCRIPT/.test(done.error ?? '')) {
      // Not an answer yet: the client sends the script itself next.
      const attempt = attemptById(vote.attemptId);
      const invokeArgs = pendingArgs.get(done.opId);
      if (attempt && invokeArgs !== undefined) noScript.set(`${vote.client}|${vote.node}`, { attempt, tail: invokeArgs });
      return;
    }
    vote.t = done.t;
    if (done.phase === 'ok') {
      const reply = done.reply;
      vote.answer = reply === 'OK' || (typeof reply === 'number' && reply >= 1) ? 'ok' : 'nil';
    } else {
      vote.answer = done.phase === 'info' || /timed? ?out/i.test(done.error ?? '') ? 'timeout' : 'error';
      if (done.error !== undefined) vote.error = done.error;
    }
    if (vote.answer === 'ok') grant(vote, done.t);
  };

  const fillFromLockEvent = (attempt: AttemptState, event: LockEvent) => {
    for (const v of event.votes ?? []) {
      if (v.node <= 0 || attempt.byNode.has(v.node)) continue;
      nodeIds.add(v.node);
      attempt.byNode.set(v.node, {
        client: attempt.client, node: v.node, key: attempt.key, token: attempt.token, attemptId: attempt.id, sentT: attempt.startT, t: event.t,
        answer: v.ok ? 'ok' : v.error !== undefined ? (/timed? ?out/i.test(v.error) ? 'timeout' : 'error') : 'nil',
        ...(v.error !== undefined ? { error: v.error } : {}),
      });
    }
  };

  const onLock = (event: LockEvent) => {
    const key = event.resources[0];
    if (key === undefined) return;
    const k = `${event.client}|${event.token}`;
    switch (event.event) {
      case 'attempt': {
        const previous = lockAttempts.get(k);
        if (previous) decide(previous, 'failed', event.t);
        lockAttempts.set(k, newAttempt(event.client, key, event.token, event.t, 'redlock', event.attempt));
        return;
      }
      case 'acquired':
      case 'failed': {
        const attempt = lockAttempts.get(k);
        if (!attempt) return;
        if (event.quorum !== undefined) attempt.quorum = event.quorum;
        fillFromLockEvent(attempt, event);
        decide(attempt, event.event, event.t);
        const holding = holdings.get(k);
        if (holding && event.event === 'acquired' && event.validityMs !== undefined) holding.validUntil = event.t + event.validityMs;
        return;
      }
      case 'extended': {
        const holding = holdings.get(k);
        const span = event.validityMs ?? event.ttlMs;
        if (holding && span !== undefined) holding.validUntil = event.t + span;
        return;
      }
      case 'released':
      case 'release-failed': {
        const holding = holdings.get(k);
        if (holding && holding.releasedAt === null) holding.releasedAt = event.t;
        return;
      }
      default:
        return;
    }
  };

  const onNotice = (notice: Notice) => {
    if (notice.kind === 'removed') {
      const g = openGrants.get(`${notice.node}|${notice.key}`);
      if (g && g.token === notice.token) closeGrant(g, notice.t, 'released');
      if (notice.token === null) return;
      const holding = holdings.get(`${notice.by}|${notice.token}`);
      if (holding && holding.releasedAt === null) holding.releasedAt = notice.t;
      // Hand-written code undoing a partial acquire: that attempt failed.
      const raw = rawAttempts.get(`${notice.by}|${notice.key}`);
      if (raw && raw.token === notice.token) decide(raw, 'failed', notice.t);
      return;
    }
    if (!forgettings.some((f) => f.node === notice.node && f.t === notice.t)) forgettings.push({ node: notice.node, t: notice.t, cause: notice.cause });
    for (const [key, entry] of notice.lost) {
      const g = openGrants.get(`${notice.node}|${key}`);
      if (g && g.token === entry.value) closeGrant(g, notice.t, 'forgot');
    }
  };

  let lastT = 0;
  for (const event of events) {
    lastT = event.t;
    keyspace.observe(event);
    if (notices.list.length > 0) {
      for (const notice of notices.list) onNotice(notice);
      notices.list.length = 0;
    }
    switch (event.type) {
      case 'redis':
        if (event.node > 0) nodeIds.add(event.node);
        if (event.phase === 'invoke') {
          onInvoke(event);
          if (event.command.toUpperCase() === 'EVALSHA' && ops.has(event.opId)) pendingArgs.set(event.opId, event.args.slice(1).join('\u0000'));
        } else {
          onComplete(event);
          pendingArgs.delete(event.opId);
        }
        break;
      case 'lock':
        onLock(event);
        break;
      case 'job':
        if (event.phase === 'enter') {
          // Hand-written code entering its job believes it holds the lock its last attempt collected.
          for (const attempt of rawAttempts.values()) {
            if (attempt.client === event.client && attempt.outcome === 'collecting' && [...attempt.byNode.values()].some((v) => v.answer === 'ok')) decide(attempt, 'acquired', event.t);
          }
        }
        break;
      case 'node': {
        nodeIds.add(event.node);
        const open = openDowns.get(event.node);
        if (event.state === 'down' && !open) {
          const down: NodeDown = { node: event.node, from: event.t, to: null };
          downs.push(down);
          openDowns.set(event.node, down);
        } else if (event.state === 'up' && open) {
          open.to = event.t;
          openDowns.delete(event.node);
        }
        break;
      }
      default:
        break;
    }
  }

  const endT = options.endT ?? lastT;
  const nodes = options.nodes !== undefined ? Array.from({ length: options.nodes }, (_, i) => i + 1) : [...nodeIds].sort((a, b) => a - b);
  const majority = Math.floor(nodes.length / 2) + 1;

  // Grants still open: the model's entry says how long (an extension moved it); past it, the grant lapsed.
  for (const g of openGrants.values()) {
    const entry = keyspace.entriesOf(g.node).get(g.key);
    const expiresAt = entry && entry.value === g.token ? entry.expiresAt : g.expiresAt;
    if (expiresAt <= endT) {
      g.to = expiresAt;
      g.endedBy = 'expired';
    }
  }

  const outAttempts: AcquireAttempt[] = attempts.map((a) => {
    const votes = [...a.byNode.values()].sort((x, y) => x.node - y.node);
    return {
      id: a.id, client: a.client, key: a.key, token: a.token, number: a.number, startT: a.startT, decidedT: a.decidedT, outcome: a.outcome,
      votes, granted: votes.filter((v) => v.answer === 'ok').map((v) => v.node), quorum: a.quorum,
    };
  });

  // Lookups by `client|token` and by `node|key`: a long run has thousands of grants, so nothing below compares all pairs.
  const grantsOf = new Map<string, GrantState[]>();
  for (const g of grants) {
    const k = `${g.client}|${g.token}`;
    const list = grantsOf.get(k);
    if (list) list.push(g);
    else grantsOf.set(k, [g]);
  }

  const outHoldings: Holding[] = [];
  for (const h of holdings.values()) {
    const attempt = outAttempts[h.attemptId];
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
    outHoldings.push({ client: h.client, key: h.key, token: h.token, attemptId: h.attemptId, nodes: attempt.granted, from: h.from, to, endedBy, majority: attempt.granted.length >= majority });
  }
  outHoldings.sort((a, b) => a.from - b.from);

  const holdingBy = new Map(outHoldings.map((h) => [`${h.client}|${h.token}`, h]));
  const holdingOf = (client: number, token: string) => holdingBy.get(`${client}|${token}`);
  const countsAt = (h: Holding | undefined, node: number, t: number) => h !== undefined && h.nodes.includes(node) && (h.to === null || h.to > t);

  // A forgotten grant its holder still counts goes on as a ghost on the node's row.
  for (const g of grants) {
    if (g.endedBy !== 'forgot' || g.to === null) continue;
    const h = holdingOf(g.client, g.token);
    if (countsAt(h, g.node, g.to)) g.ghostTo = h?.to ?? null;
  }

  // Per node and key, in time order: each grant against the earlier ones a holder may still count (not released, holding not over).
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

  // A sweep in order of start: each holding against the earlier ones not yet over.
  const twoHolders: TwoHolders[] = [];
  let active: Holding[] = [];
  for (const b of outHoldings) {
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

  const outGrants: NodeGrant[] = grants.map(({ expiresAt: _expiresAt, ...g }) => g);
  return { nodes, majority, attempts: outAttempts, holdings: outHoldings, grants: outGrants, forgettings, downs, doubleVotes, twoHolders, endT };
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
    const command = event.command.toUpperCase();
    if (!((command === 'SET' && event.args.slice(2).some((a) => NX.test(a))) || command === 'SETNX')) continue;
    // One acquire (one token) asked of two nodes: a vote. The same client locking again on another node
    // after a failover is a new acquire (a new token), not a vote.
    const k = `${event.client}|${event.args[0] ?? ''}|${event.args[1] ?? ''}`;
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
