/**
 * The votes view's reading of a history, event by event: attempts and their
 * votes come from the lock operations (lib/lock-ops, the same reading the
 * timeline and the measurements fold); what each node holds, and when it lets
 * go — a release, its TTL, or a restart that forgot everything — from the
 * checker's keyspace model. derive.ts turns the result into who voted for whom.
 *
 * What a client believes is this view's own: the `redlock` module says what it
 * decided; hand-written code does not, so its attempt counts as acquired when
 * its client then enters its job, and as failed when the client releases it
 * or tries again first.
 */
import type { HistoryEvent, LockEvent, NemesisEvent, NodeStateEvent, RedisCompleteEvent, RedisInvokeEvent } from '../history';
import { Keyspace, type KeyEntry, type KeyspaceObserver } from '../checker/keyspace';
import { LockOpReader, type Acquire, type LockOp } from '../lock-ops/acquires';
import type { AcquireAttempt, ForgetCause, Forgetting, NodeDown, NodeGrant, Vote } from './types';

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

/** An attempt as the view follows it: the lock operations' acquire, and what its client made of it. */
export interface AttemptState {
  id: number;
  acquire: Acquire;
  number: number;
  outcome: AcquireAttempt['outcome'];
  decidedT: number | null;
  quorum: number | null;
}

export interface GrantState extends NodeGrant {
  expiresAt: number;
}

export interface HoldingState {
  client: number;
  key: string;
  token: string;
  attemptId: number;
  from: number;
  releasedAt: number | null;
  /** The holder's own idea of when its lock lapses (the `redlock` module's validity, moved by extensions). */
  validUntil: number | null;
}

export class VoteFold {
  private readonly notices = new Notices();
  readonly keyspace = new Keyspace([this.notices]);
  private readonly reader = new LockOpReader();
  readonly nodeIds = new Set<number>();
  readonly attempts: AttemptState[] = [];
  private readonly byAcquire = new Map<number, AttemptState>();
  /** Hand-written code's current attempt per `client|key`. */
  private readonly rawAttempts = new Map<string, AttemptState>();
  private readonly attemptCounts = new Map<string, number>();
  readonly grants: GrantState[] = [];
  /** `node|key` → the grant the node holds. */
  readonly openGrants = new Map<string, GrantState>();
  /** `client|token` → what the client believes it holds. */
  readonly holdings = new Map<string, HoldingState>();
  readonly forgettings: Forgetting[] = [];
  readonly downs: NodeDown[] = [];
  private readonly openDowns = new Map<number, NodeDown>();
  lastT = 0;

  observe(event: HistoryEvent): void {
    this.lastT = event.t;
    this.keyspace.observe(event);
    if (this.notices.list.length > 0) {
      for (const notice of this.notices.list) this.onNotice(notice);
      this.notices.list.length = 0;
    }
    for (const op of this.reader.observe(event)) this.onOp(op);
    if (event.type === 'redis' && event.node > 0) this.nodeIds.add(event.node);
    else if (event.type === 'job' && event.phase === 'enter') this.entered(event.client, event.t);
    else if (event.type === 'node') this.onNode(event);
  }

  /** The votes of an attempt, by node, as they stand. */
  votesOf(attempt: AttemptState): Vote[] {
    const a = attempt.acquire;
    const votes: Vote[] = [];
    for (const v of a.votes.values()) {
      const vote: Vote = { client: a.client, node: v.node, key: a.key, token: a.token, attemptId: attempt.id, sentT: v.sentT, t: v.t, answer: v.answer };
      if (v.error !== undefined) vote.error = v.error;
      votes.push(vote);
    }
    return votes.sort((x, y) => x.node - y.node);
  }

  private onOp(op: LockOp): void {
    switch (op.kind) {
      case 'attempt':
        this.newAttempt(op.acquire, op.t);
        return;
      case 'retried': {
        const previous = this.byAcquire.get(op.acquire.id);
        if (previous) this.decide(previous, 'failed', op.t);
        return;
      }
      case 'answer':
        if (op.vote.answer === 'ok') this.grant(op.acquire, op.vote.node, op.t);
        return;
      case 'decided':
        if (op.event) this.moduleDecided(op.event, op.acquire);
        return;
      case 'extended': {
        // The module's extensions move its own idea of its validity; a hand-written hold lapses with its votes (grants).
        const holding = op.event && this.holdings.get(`${op.client}|${op.token}`);
        if (holding && op.validUntil !== null) holding.validUntil = op.validUntil;
        return;
      }
      case 'released': {
        const holding = op.event && this.holdings.get(`${op.client}|${op.token}`);
        if (holding && holding.releasedAt === null) holding.releasedAt = op.t;
        return;
      }
      default:
        return;
    }
  }

  private newAttempt(acquire: Acquire, t: number): void {
    const countKey = `${acquire.client}|${acquire.key}`;
    const n = acquire.attempt ?? (this.attemptCounts.get(countKey) ?? 0) + 1;
    this.attemptCounts.set(countKey, Math.max(n, this.attemptCounts.get(countKey) ?? 0));
    const attempt: AttemptState = { id: this.attempts.length, acquire, number: n, outcome: 'collecting', decidedT: null, quorum: null };
    this.attempts.push(attempt);
    this.byAcquire.set(acquire.id, attempt);
    if (acquire.source !== 'commands') return;
    // Hand-written code trying again has given up on its last attempt.
    const current = this.rawAttempts.get(countKey);
    if (current) this.decide(current, 'failed', t);
    this.rawAttempts.set(countKey, attempt);
  }

  private decide(attempt: AttemptState, outcome: 'acquired' | 'failed', t: number): void {
    if (attempt.outcome !== 'collecting') return;
    attempt.outcome = outcome;
    attempt.decidedT = t;
    if (outcome !== 'acquired') return;
    const { client, key, token } = attempt.acquire;
    this.holdings.set(`${client}|${token}`, { client, key, token, attemptId: attempt.id, from: t, releasedAt: null, validUntil: null });
  }

  private moduleDecided(event: LockEvent, acquire: Acquire): void {
    const attempt = this.byAcquire.get(acquire.id);
    if (!attempt) return;
    if (event.quorum !== undefined) attempt.quorum = event.quorum;
    for (const node of acquire.votes.keys()) this.nodeIds.add(node);
    this.decide(attempt, event.event === 'acquired' ? 'acquired' : 'failed', event.t);
    const holding = this.holdings.get(`${event.client}|${event.token}`);
    if (holding && event.event === 'acquired' && event.validityMs !== undefined) holding.validUntil = event.t + event.validityMs;
  }

  /** Hand-written code entering its job believes it holds the lock its last attempt collected. */
  private entered(client: number, t: number): void {
    for (const attempt of this.rawAttempts.values()) {
      if (attempt.acquire.client !== client || attempt.outcome !== 'collecting') continue;
      if ([...attempt.acquire.votes.values()].some((v) => v.answer === 'ok')) this.decide(attempt, 'acquired', t);
    }
  }

  private closeGrant(grant: GrantState, t: number, endedBy: NodeGrant['endedBy']): void {
    grant.to = t;
    grant.endedBy = endedBy;
    const k = `${grant.node}|${grant.key}`;
    if (this.openGrants.get(k) === grant) this.openGrants.delete(k);
  }

  private grant(acquire: Acquire, node: number, t: number): void {
    const attempt = this.byAcquire.get(acquire.id);
    if (!attempt) return;
    const k = `${node}|${acquire.key}`;
    const previous = this.openGrants.get(k);
    if (previous) {
      // The node granted again while the model thought it still held the key: the old grant had lapsed, or we cannot say.
      const lapsed = previous.expiresAt <= t;
      this.closeGrant(previous, lapsed ? previous.expiresAt : t, lapsed ? 'expired' : null);
    }
    const entry = this.keyspace.entriesOf(node).get(acquire.key);
    const expiresAt = entry && entry.value === acquire.token ? entry.expiresAt : Infinity;
    const g: GrantState = { node, client: acquire.client, key: acquire.key, token: acquire.token, attemptId: attempt.id, from: t, to: null, endedBy: null, expiresAt };
    this.grants.push(g);
    this.openGrants.set(k, g);
  }

  private onNotice(notice: Notice): void {
    if (notice.kind === 'removed') {
      const g = this.openGrants.get(`${notice.node}|${notice.key}`);
      if (g && g.token === notice.token) this.closeGrant(g, notice.t, 'released');
      if (notice.token === null) return;
      const holding = this.holdings.get(`${notice.by}|${notice.token}`);
      if (holding && holding.releasedAt === null) holding.releasedAt = notice.t;
      // Hand-written code undoing a partial acquire: that attempt failed.
      const raw = this.rawAttempts.get(`${notice.by}|${notice.key}`);
      if (raw && raw.acquire.token === notice.token) this.decide(raw, 'failed', notice.t);
      return;
    }
    if (!this.forgettings.some((f) => f.node === notice.node && f.t === notice.t)) this.forgettings.push({ node: notice.node, t: notice.t, cause: notice.cause });
    for (const [key, entry] of notice.lost) {
      const g = this.openGrants.get(`${notice.node}|${key}`);
      if (g && g.token === entry.value) this.closeGrant(g, notice.t, 'forgot');
    }
  }

  private onNode(event: NodeStateEvent): void {
    this.nodeIds.add(event.node);
    const open = this.openDowns.get(event.node);
    if (event.state === 'down' && !open) {
      const down: NodeDown = { node: event.node, from: event.t, to: null };
      this.downs.push(down);
      this.openDowns.set(event.node, down);
    } else if (event.state === 'up' && open) {
      open.to = event.t;
      this.openDowns.delete(event.node);
    }
  }
}
