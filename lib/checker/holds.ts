/**
 * Who holds which lock, and until when, from the `redlock` module's LockEvents
 * or (for code that talks to Redis directly) from raw lock commands. A hold
 * ends when its client releases it or its TTL runs out; a crash does not end
 * it — the key stays until it expires, which is the point of a TTL.
 *
 * Once a resource has LockEvents, raw commands on that key are ignored: they
 * are the module's own SETs and its events say more (votes, validity).
 */
import type { LockEvent } from '../history';
import type { ClientSignal } from './clients';
import type { DiagnosisLog } from './diagnoses';
import type { RawLockSignal } from './lock-signals';
import { clientLabel, formatDuration, quote } from './format';

export interface Hold {
  client: number;
  resource: string;
  token: string;
  startT: number;
  startSeq: number;
  /** null: the key has no TTL; undefined: we do not know. */
  ttlMs: number | null | undefined;
  /** Lab time the key expires (Infinity: never, or unknown). */
  expiresAt: number;
  /** Lab time until which the holder may assume it holds the lock. */
  validUntil: number;
  validityMs: number | undefined;
  extensions: number;
  released: boolean;
  crashed: boolean;
  nodes: Set<number>;
}

/** What an acquire came to, for the liveness check. */
export interface LockOutcome {
  kind: 'acquired' | 'failed' | 'unknown';
  client: number;
  resource: string;
  t: number;
  seq: number;
  /**
   * Only for `unknown`: the key may have been set on the node from `since`
   * (the command was sent) and then stays until `until` (its TTL after the
   * reply at the latest; Infinity when it has none or we cannot tell).
   */
  maybeHeld?: { since: number; until: number };
}

/** Free means: no hold that is live (released holds and expired keys do not count). */
export interface Freedom {
  free: boolean;
  /** A crashed holder whose key has no TTL: the lock is free in spirit, stuck in fact. */
  stuck: Hold | null;
}

const HOLDS_KEPT_PER_CLIENT = 8;
const NO_OUTCOMES: readonly LockOutcome[] = Object.freeze([]);

export class LockHolds {
  private readonly byResource = new Map<string, Map<number, Hold>>();
  private readonly byClient = new Map<number, Hold[]>();
  private readonly managed = new Set<string>();
  private readonly lockNodes = new Map<string, Set<number>>();
  private readonly quorums = new Map<string, number>();
  acquires = 0;

  constructor(private readonly diagnoses: DiagnosisLog) {}

  /** Nodes the lock on `resource` lives on, as far as the history shows. */
  nodesOf(resource: string): ReadonlySet<number> {
    return this.lockNodes.get(resource) ?? new Set();
  }

  quorumOf(resource: string): number | undefined {
    return this.quorums.get(resource);
  }

  /** The client's most recent hold taken at or before `t` and not released (any resource). */
  currentHold(client: number, t: number): Hold | null {
    const holds = this.byClient.get(client);
    if (!holds) return null;
    for (let i = holds.length - 1; i >= 0; i--) {
      const hold = holds[i] as Hold;
      if (!hold.released && hold.startT <= t) return hold;
    }
    return null;
  }

  freedom(resource: string, t: number): Freedom {
    const holds = this.byResource.get(resource);
    let stuck: Hold | null = null;
    if (!holds) return { free: true, stuck };
    for (const [client, hold] of holds) {
      if (hold.released || hold.expiresAt <= t) {
        holds.delete(client);
        continue;
      }
      if (hold.crashed && hold.ttlMs === null) {
        stuck = hold;
        continue;
      }
      return { free: false, stuck: null };
    }
    return { free: true, stuck };
  }

  observeLock(event: LockEvent): LockOutcome[] {
    const outcomes: LockOutcome[] = [];
    for (const resource of event.resources) {
      if (!this.managed.has(resource)) {
        this.managed.add(resource);
        // Holds inferred from the module's own SETs are superseded by its events.
        this.byResource.delete(resource);
      }
      for (const vote of event.votes ?? []) this.nodeSet(resource).add(vote.node);
      if (event.quorum !== undefined) this.quorums.set(resource, event.quorum);
      const base = { client: event.client, resource, t: event.t, seq: event.seq };
      switch (event.event) {
        case 'acquired':
          this.acquire(event.client, resource, event.token, event.t, event.seq, event.ttlMs, event.validityMs, event.votes?.filter((v) => v.ok).map((v) => v.node) ?? []);
          outcomes.push({ kind: 'acquired', ...base });
          break;
        case 'failed':
          outcomes.push({ kind: 'failed', ...base });
          break;
        case 'extended':
          this.extend(event.client, resource, event.t, event.ttlMs, event.validityMs);
          break;
        case 'released':
          this.release(event.client, resource);
          break;
        default:
          // attempt, extend-failed, release-failed: the hold stands until its key expires.
          break;
      }
    }
    if (event.event === 'acquired') this.checkVotes(event);
    return outcomes;
  }

  observeRaw(signal: RawLockSignal): readonly LockOutcome[] {
    const resource = signal.key;
    if (this.managed.has(resource)) return NO_OUTCOMES;
    this.nodeSet(resource).add(signal.node);
    const base = { client: signal.client, resource, t: signal.t, seq: signal.seq };
    switch (signal.kind) {
      case 'acquire': {
        if (signal.outcome === 'fail') return [{ kind: 'failed', ...base }];
        if (signal.outcome === 'unknown') {
          const until = typeof signal.ttlMs === 'number' ? signal.t + signal.ttlMs : Infinity;
          return [{ kind: 'unknown', ...base, maybeHeld: { since: signal.invokeT, until } }];
        }
        const held = this.byResource.get(resource)?.get(signal.client);
        if (held && !held.released && held.token === signal.token && held.expiresAt > signal.t) {
          // The same acquire on one more node (code doing its own quorum).
          held.nodes.add(signal.node);
          return NO_OUTCOMES;
        }
        this.acquire(signal.client, resource, signal.token, signal.t, signal.seq, signal.ttlMs, undefined, [signal.node]);
        return [{ kind: 'acquired', ...base }];
      }
      case 'extend':
        this.extend(signal.client, resource, signal.t, signal.ttlMs, undefined);
        return NO_OUTCOMES;
      case 'release':
        this.release(signal.client, resource);
        return NO_OUTCOMES;
    }
  }

  observeClient(signal: ClientSignal): void {
    if (signal.kind === 'resume') this.checkPause(signal);
    if (signal.kind !== 'end') return;
    for (const hold of this.byClient.get(signal.client) ?? []) {
      if (hold.released || hold.expiresAt <= signal.t) continue;
      hold.crashed = true;
      if (hold.ttlMs !== null) continue;
      this.diagnoses.add({
        kind: 'lock-without-ttl-never-frees',
        check: 'liveness',
        subject: `${hold.client}|${hold.resource}`,
        message:
          `${clientLabel(hold.client)} ${signal.how === 'crash' ? 'crashed' : 'ended'} holding ${quote(hold.resource)}, whose key has no TTL: ` +
          `it never frees, so nobody can take the lock again. Set a TTL (SET … NX PX).`,
        seqs: [hold.startSeq, signal.seq],
        window: { from: hold.startT, to: signal.t },
        clients: [hold.client],
      });
    }
  }

  /** Named when a critical section outlives its lock's TTL and nothing extended it. */
  checkSection(hold: Hold | null, section: { client: number; job: string; runningMs: number; enterSeq: number; exitSeq: number; enterT: number; exitT: number }): void {
    if (!hold || typeof hold.ttlMs !== 'number' || hold.extensions > 0) return;
    if (section.runningMs <= hold.ttlMs) return;
    this.diagnoses.add({
      kind: 'ttl-shorter-than-job',
      check: 'mutual-exclusion',
      subject: `${section.client}|${hold.resource}|${section.job}`,
      message:
        `TTL ${formatDuration(hold.ttlMs)} is shorter than the ${formatDuration(section.runningMs)} critical section and nothing extends it ` +
        `(${clientLabel(section.client)}, job ${quote(section.job)}): the lock expired mid-job, ` +
        `so another client could take it. Extend it (a watchdog every TTL/3) or use a longer TTL.`,
      seqs: [hold.startSeq, section.enterSeq, section.exitSeq],
      window: { from: hold.startT + hold.ttlMs, to: section.exitT },
      clients: [section.client],
    });
  }

  private nodeSet(resource: string): Set<number> {
    let nodes = this.lockNodes.get(resource);
    if (!nodes) {
      nodes = new Set();
      this.lockNodes.set(resource, nodes);
    }
    return nodes;
  }

  private acquire(client: number, resource: string, token: string, t: number, seq: number, ttlMs: number | null | undefined, validityMs: number | undefined, nodes: number[]): void {
    this.acquires += 1;
    const expiresAt = typeof ttlMs === 'number' ? t + ttlMs : Infinity;
    const hold: Hold = {
      client,
      resource,
      token,
      startT: t,
      startSeq: seq,
      ttlMs,
      expiresAt,
      validityMs,
      validUntil: validityMs !== undefined ? t + validityMs : expiresAt,
      extensions: 0,
      released: false,
      crashed: false,
      nodes: new Set(nodes),
    };
    let holders = this.byResource.get(resource);
    if (!holders) {
      holders = new Map();
      this.byResource.set(resource, holders);
    }
    holders.set(client, hold);
    const mine = this.byClient.get(client) ?? [];
    mine.push(hold);
    if (mine.length > HOLDS_KEPT_PER_CLIENT) mine.shift();
    this.byClient.set(client, mine);
  }

  private extend(client: number, resource: string, t: number, ttlMs: number | undefined, validityMs: number | undefined): void {
    const hold = this.byResource.get(resource)?.get(client);
    if (!hold || hold.released) return;
    hold.extensions += 1;
    const ttl = ttlMs ?? (typeof hold.ttlMs === 'number' ? hold.ttlMs : undefined);
    if (ttl !== undefined) hold.expiresAt = t + ttl;
    const validity = validityMs ?? ttl;
    if (validity !== undefined) hold.validUntil = t + validity;
  }

  private release(client: number, resource: string): void {
    const hold = this.byResource.get(resource)?.get(client);
    if (hold) hold.released = true;
    this.byResource.get(resource)?.delete(client);
  }

  private checkVotes(event: LockEvent): void {
    const votes = event.votes;
    if (!votes || votes.length === 0) return;
    const ok = votes.filter((v) => v.ok).length;
    const quorum = event.quorum ?? Math.floor(votes.length / 2) + 1;
    if (ok >= quorum) return;
    this.diagnoses.add({
      kind: 'acquired-without-quorum',
      check: 'mutual-exclusion',
      subject: `${event.client}|${event.resources.join(',')}`,
      message:
        `${clientLabel(event.client)} acquired ${quote(event.resources.join(', '))} with ${ok} of ${votes.length} votes ` +
        `(quorum ${quorum}): a minority lock, which another client can hold at the same time.`,
      seqs: [event.seq],
      window: { from: event.t, to: event.t },
      clients: [event.client],
    });
  }

  private checkPause(signal: Extract<ClientSignal, { kind: 'resume' }>): void {
    const pausedMs = signal.t - signal.pausedAt;
    for (const hold of this.byClient.get(signal.client) ?? []) {
      if (hold.released || hold.startT > signal.pausedAt || !Number.isFinite(hold.validUntil)) continue;
      const left = hold.validUntil - signal.pausedAt;
      if (left <= 0 || pausedMs <= left) continue;
      const validity = hold.validityMs ?? (typeof hold.ttlMs === 'number' ? hold.ttlMs : left);
      const tail = left >= validity - 0.5 ? `longer than its ${formatDuration(validity)} validity` : `longer than the ${formatDuration(left)} left of its ${formatDuration(validity)} validity`;
      this.diagnoses.add({
        kind: 'pause-beyond-validity',
        check: 'mutual-exclusion',
        subject: `${signal.client}|${hold.resource}`,
        message:
          `${clientLabel(signal.client)} was paused ${formatDuration(pausedMs)}, ${tail} on ${quote(hold.resource)}: ` +
          `it woke up believing it still held the lock. A lock alone cannot stop this; fence the resource with the lock's token.`,
        seqs: [hold.startSeq, signal.pausedSeq, signal.seq],
        window: { from: hold.validUntil, to: signal.t },
        clients: [signal.client],
      });
    }
  }
}
