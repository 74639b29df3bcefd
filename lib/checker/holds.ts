/**
 * Who holds which lock, and until when, from the `redlock` module's LockEvents
 * or (for code that talks to Redis directly) from raw lock commands. A hold
 * ends when its client releases it or its TTL runs out; a crash does not end
 * it — the key stays until it expires, which is the point of a TTL.
 *
 * Once a resource has LockEvents, raw commands on that key are ignored: they
 * are the module's own SETs and its events say more (votes, validity).
 *
 * A lock taken without a TTL (SETNX, SET NX without PX) gets one from the
 * first EXPIRE/PEXPIRE that follows: that is the TTL arriving late, not a
 * renewal. Until it arrives (or after a PERSIST) the key never frees if its
 * holder dies: the `lock-without-ttl-never-frees` diagnosis.
 *
 * The diagnoses read off holds are observers (hold-observer.ts), one
 * diagnosis-*.ts file each: this file keeps the holds and tells them.
 */
import type { LockEvent } from '../history';
import type { ClientSignal } from './clients';
import type { DiagnosisLog } from './diagnoses';
import { AcquiredWithoutQuorum } from './diagnosis-acquired-without-quorum';
import { LockWithoutTtlNeverFrees } from './diagnosis-lock-without-ttl-never-frees';
import { PauseBeyondValidity } from './diagnosis-pause-beyond-validity';
import { QuorumNotMajority } from './diagnosis-quorum-not-majority';
import { RenewalFailedMidJob } from './diagnosis-renewal-failed-mid-job';
import { SectionOutlivedLock } from './diagnosis-section-outlived-lock';
import { TtlShorterThanJob } from './diagnosis-ttl-shorter-than-job';
import type { HoldObserver, HoldsView, PersistSignal } from './hold-observer';
import type { RawLockSignal } from './lock-signals';
import { timeWords, type TimeWords } from './format';

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
  /** Its client's program is gone (a crash, or its end or error), the hold unreleased. */
  crashed: boolean;
  /** When and how its client's program ended while it held the lock. */
  endedAt: number | null;
  endHow: 'crash' | 'exit' | 'error' | null;
  nodes: Set<number>;
  /** Already named as a key without TTL (by a PERSIST): its holder's end does not name it again. */
  noTtlNamed: boolean;
  /** A pause beyond its validity was named: that explains a section outliving it. */
  pausedPastValidity: boolean;
  /** When a renewal of it first failed (timed out, refused, or found another token), if one did. */
  renewalFailedAt: number | null;
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

export class LockHolds implements HoldsView {
  private readonly byResource = new Map<string, Map<number, Hold>>();
  private readonly byClient = new Map<number, Hold[]>();
  private readonly managed = new Set<string>();
  private readonly lockNodes = new Map<string, Set<number>>();
  private readonly quorums = new Map<string, number>();
  /** Per resource, each client's latest grant: did someone else take the lock while a hold was out? */
  private readonly lastGrant = new Map<string, Map<number, number>>();
  acquires = 0;
  /**
   * In the order they are told: a section's exit asks the first three in turn until one names why it outlived its
   * lock (a failed renewal explains it before a short TTL, which explains it before the bare outliving).
   */
  private readonly observers: readonly HoldObserver[];

  constructor(
    diagnoses: DiagnosisLog,
    at: TimeWords = timeWords(),
    /** The lab's node count, when known: what a quorum must be a majority of. */
    readonly labNodes = 0,
  ) {
    this.observers = [
      new RenewalFailedMidJob(diagnoses, at),
      new TtlShorterThanJob(diagnoses),
      new SectionOutlivedLock(diagnoses, at, this),
      new QuorumNotMajority(diagnoses, this),
      new AcquiredWithoutQuorum(diagnoses),
      new PauseBeyondValidity(diagnoses),
      new LockWithoutTtlNeverFrees(diagnoses, at),
    ];
  }

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
        case 'extend-failed':
          this.renewalFailed(event.client, resource, event.t);
          break;
        default:
          // attempt, release-failed: the hold stands until its key expires.
          break;
      }
    }
    if (event.event === 'acquired') for (const observer of this.observers) observer.acquired?.(event);
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
      case 'extend-failed':
        this.renewalFailed(signal.client, resource, signal.t);
        return NO_OUTCOMES;
      case 'persist':
        this.persist(signal);
        return NO_OUTCOMES;
    }
  }

  observeClient(signal: ClientSignal): void {
    if (signal.kind === 'resume') {
      const holds = this.byClient.get(signal.client) ?? [];
      for (const observer of this.observers) observer.resumed?.(signal, holds);
    }
    if (signal.kind !== 'end') return;
    for (const hold of this.byClient.get(signal.client) ?? []) {
      if (hold.released || hold.expiresAt <= signal.t) continue;
      hold.crashed = true;
      hold.endedAt = signal.t;
      hold.endHow = signal.how;
      for (const observer of this.observers) observer.holderEnded?.(hold, signal);
    }
  }

  /** At a section's exit: its observers say whether, and why, it outlived its lock. */
  checkSection(hold: Hold | null, section: SectionAtExit): void {
    if (!hold) return;
    for (const observer of this.observers) if (observer.sectionExited?.(hold, section)) return;
  }

  private renewalFailed(client: number, resource: string, t: number): void {
    const hold = this.byResource.get(resource)?.get(client);
    if (hold && !hold.released && hold.renewalFailedAt === null) hold.renewalFailedAt = t;
  }

  /** Two clients inside the same job at once, each under its hold (if it has one). */
  bothInside(first: Hold | null, second: Hold | null, t: number, seq: number): void {
    if (!first || !second) return;
    for (const observer of this.observers) observer.bothInside?.(first, second, t, seq);
  }

  /** Another client was granted `hold`'s resource after `hold` began, up to `t`. */
  grantedToAnother(hold: Hold, t: number): boolean {
    for (const [client, grantT] of this.lastGrant.get(hold.resource) ?? []) {
      if (client !== hold.client && grantT > hold.startT && grantT <= t) return true;
    }
    return false;
  }

  /** A PERSIST took a held lock's TTL away: it never expires now. */
  private persist(signal: PersistSignal): void {
    const hold = this.byResource.get(signal.key)?.get(signal.client);
    if (!hold || hold.released || hold.expiresAt <= signal.t) return;
    hold.ttlMs = null;
    hold.expiresAt = Infinity;
    hold.validUntil = Infinity;
    for (const observer of this.observers) observer.persisted?.(hold, signal);
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
      endedAt: null,
      endHow: null,
      nodes: new Set(nodes),
      noTtlNamed: false,
      pausedPastValidity: false,
      renewalFailedAt: null,
    };
    let grants = this.lastGrant.get(resource);
    if (!grants) {
      grants = new Map();
      this.lastGrant.set(resource, grants);
    }
    grants.set(client, t);
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
    if (hold.ttlMs === null) {
      // A lock taken without a TTL (SETNX) getting one: its TTL arrives, nothing is renewed.
      hold.ttlMs = ttlMs;
      hold.expiresAt = ttlMs === undefined ? Infinity : t + ttlMs;
      hold.validUntil = validityMs !== undefined ? t + validityMs : hold.expiresAt;
      return;
    }
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

  /** A store write carrying a fencing token: its client fences. */
  fencedWrite(client: number): void {
    for (const observer of this.observers) observer.fencedWrite?.(client);
  }
}

/** What a section's exit tells the hold checks. */
export interface SectionAtExit {
  client: number;
  job: string;
  /** Time inside, pauses left out. */
  runningMs: number;
  enterSeq: number;
  exitSeq: number;
  enterT: number;
  exitT: number;
}
