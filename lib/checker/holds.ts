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
 */
import type { LockEvent } from '../history';
import type { ClientSignal } from './clients';
import type { DiagnosisLog } from './diagnoses';
import type { RawLockSignal } from './lock-signals';
import { client as clientValue, code, duration, ended, node as nodeValue, timeWords, type TimeWords } from './format';
import { words, type Words } from '../words';

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

export class LockHolds {
  private readonly byResource = new Map<string, Map<number, Hold>>();
  private readonly byClient = new Map<number, Hold[]>();
  private readonly managed = new Set<string>();
  private readonly lockNodes = new Map<string, Set<number>>();
  private readonly quorums = new Map<string, number>();
  /** Clients seen writing the store with a fencing token. */
  private readonly fencingClients = new Set<number>();
  /** Per client, its pause diagnosis in the words for a client that fences, until one of its writes shows it does. */
  private readonly pauseWords = new Map<number, { subject: string; fenced: Words }>();
  /** Per resource, each client's latest grant: did someone else take the lock while a hold was out? */
  private readonly lastGrant = new Map<string, Map<number, number>>();
  acquires = 0;

  constructor(
    private readonly diagnoses: DiagnosisLog,
    private readonly at: TimeWords = timeWords(),
    /** The lab's node count, when known: what a quorum must be a majority of. */
    private readonly labNodes = 0,
  ) {}

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
      case 'extend-failed':
        this.renewalFailed(signal.client, resource, signal.t);
        return NO_OUTCOMES;
      case 'persist':
        this.persist(signal);
        return NO_OUTCOMES;
    }
  }

  observeClient(signal: ClientSignal): void {
    if (signal.kind === 'resume') this.checkPause(signal);
    if (signal.kind !== 'end') return;
    for (const hold of this.byClient.get(signal.client) ?? []) {
      if (hold.released || hold.expiresAt <= signal.t) continue;
      hold.crashed = true;
      hold.endedAt = signal.t;
      hold.endHow = signal.how;
      if (hold.ttlMs !== null || hold.noTtlNamed) continue;
      this.diagnoses.add({
        kind: 'lock-without-ttl-never-frees',
        check: 'liveness',
        subject: hold.resource,
        words: words('checker.diagnosis.lockWithoutTtlEnded', {
          client: clientValue(hold.client),
          ended: ended(signal.how),
          at: this.at(signal.t),
          resource: code(hold.resource),
          takenAt: this.at(hold.startT),
        }),
        seqs: [hold.startSeq, signal.seq],
        window: { from: hold.startT, to: signal.t },
        clients: [hold.client],
      });
    }
  }

  /**
   * At a section's exit: named when it outlived its lock. The TTL diagnosis
   * says it when the work alone is longer than a TTL nothing extends; else,
   * unless a pause already explains it, the section-outlived one.
   */
  checkSection(hold: Hold | null, section: SectionAtExit): void {
    if (!hold) return;
    if (this.checkRenewal(hold, section)) return;
    if (this.checkTtl(hold, section)) return;
    this.checkOutlived(hold, section);
  }

  /**
   * The holder renewed (or tried to: a watchdog), a renewal failed, and the job ran on past the lock's expiry:
   * the TTL was not too short, the renewals stopped getting through (lesson 3's "the extension fails").
   */
  private checkRenewal(hold: Hold, section: SectionAtExit): boolean {
    if (hold.renewalFailedAt === null || hold.released || hold.pausedPastValidity || !Number.isFinite(hold.expiresAt)) return false;
    if (section.exitT <= hold.expiresAt || hold.renewalFailedAt > section.exitT) return false;
    const { client, job } = section;
    this.diagnoses.add({
      kind: 'renewal-failed-mid-job',
      check: 'mutual-exclusion',
      subject: `${hold.resource}|${job}`,
      words: words('checker.diagnosis.renewalFailed', {
        client: clientValue(client),
        resource: code(hold.resource),
        expiredAt: this.at(hold.expiresAt),
        job: code(job),
        until: this.at(section.exitT),
        failedAt: this.at(hold.renewalFailedAt),
      }),
      seqs: [hold.startSeq, section.enterSeq, section.exitSeq],
      window: { from: hold.expiresAt, to: section.exitT },
      clients: [client],
    });
    return true;
  }

  private renewalFailed(client: number, resource: string, t: number): void {
    const hold = this.byResource.get(resource)?.get(client);
    if (hold && !hold.released && hold.renewalFailedAt === null) hold.renewalFailedAt = t;
  }

  /**
   * Two clients inside the same job at once, each with a live hold of the same lock on a set of nodes
   * the other's does not touch: the code counted a minority of the nodes as the lock (lesson 5's
   * ⌊n/2⌋), so both sides of a split could lock. Only for code that collects votes itself (a hold on
   * more than one node): two single-node holds are a lost lock (failover, restart), not a quorum.
   */
  checkSplitQuorum(first: Hold | null, second: Hold | null, t: number, seq: number): void {
    if (!first || !second || first.client === second.client || first.resource !== second.resource) return;
    if (first.released || second.released || first.expiresAt <= t || second.expiresAt <= t) return;
    if (Math.max(first.nodes.size, second.nodes.size) < 2 || [...first.nodes].some((n) => second.nodes.has(n))) return;
    const total = Math.max(this.labNodes, this.nodesOf(first.resource).size, first.nodes.size + second.nodes.size);
    const [minority, other] = first.nodes.size <= second.nodes.size ? [first, second] : [second, first];
    if (minority.nodes.size > total / 2) return;
    const names = (hold: Hold) => ({ list: [...hold.nodes].sort((a, b) => a - b).map(nodeValue) });
    this.diagnoses.add({
      kind: 'quorum-not-majority',
      check: 'mutual-exclusion',
      subject: `${first.resource}|${minority.nodes.size}`,
      words: words('checker.diagnosis.quorumNotMajority', {
        client: clientValue(minority.client),
        resource: code(minority.resource),
        size: minority.nodes.size,
        total,
        nodes: names(minority),
        other: clientValue(other.client),
        otherNodes: names(other),
        majority: Math.floor(total / 2) + 1,
      }),
      seqs: [first.startSeq, second.startSeq, seq],
      window: { from: Math.max(first.startT, second.startT), to: t },
      clients: [first.client, second.client],
    });
  }

  /** Named when a critical section outlives its lock's TTL and nothing extended it; true when that is the case. */
  private checkTtl(hold: Hold, section: SectionAtExit): boolean {
    if (typeof hold.ttlMs !== 'number' || hold.extensions > 0) return false;
    if (section.runningMs <= hold.ttlMs) return false;
    this.diagnoses.add({
      kind: 'ttl-shorter-than-job',
      check: 'mutual-exclusion',
      // One cause (this TTL for this job), however many clients ran into it.
      subject: `${hold.resource}|${section.job}|${hold.ttlMs}`,
      words: words('checker.diagnosis.ttlShorterThanJob', {
        ttl: duration(hold.ttlMs),
        running: duration(section.runningMs),
        client: clientValue(section.client),
        job: code(section.job),
      }),
      seqs: [hold.startSeq, section.enterSeq, section.exitSeq],
      window: { from: hold.startT + hold.ttlMs, to: section.exitT },
      clients: [section.client],
    });
    return true;
  }

  /**
   * The job was still running after the hold's validity ended (extensions
   * counted; for the redlock module, its validityMs) and nobody else took the
   * lock meanwhile (if someone did, mutual exclusion says more). Only with a
   * known expiry, and not for a hold its client released first.
   */
  private checkOutlived(hold: Hold, section: SectionAtExit): void {
    if (hold.released || hold.pausedPastValidity || !Number.isFinite(hold.validUntil) || section.exitT <= hold.validUntil) return;
    if (this.grantedToAnother(hold, section.exitT)) return;
    const { client, job } = section;
    const bareFrom = Math.max(hold.validUntil, section.enterT);
    const how =
      section.enterT >= hold.validUntil
        ? words('checker.diagnosis.enteredAfterValidity', {
            client: clientValue(client),
            job: code(job),
            enteredAt: this.at(section.enterT),
            resource: code(hold.resource),
            validUntil: this.at(hold.validUntil),
            until: this.at(section.exitT),
          })
        : words('checker.diagnosis.ranPastValidity', {
            client: clientValue(client),
            job: code(job),
            until: this.at(section.exitT),
            resource: code(hold.resource),
            validUntil: this.at(hold.validUntil),
          });
    this.diagnoses.add({
      kind: 'section-outlived-lock',
      check: 'mutual-exclusion',
      subject: `${hold.resource}|${job}`,
      words: words('checker.diagnosis.sectionOutlivedLock', { how: { words: how }, bare: duration(section.exitT - bareFrom) }),
      seqs: [hold.startSeq, section.enterSeq, section.exitSeq],
      window: { from: bareFrom, to: section.exitT },
      clients: [client],
    });
  }

  /** Another client was granted `hold`'s resource after `hold` began, up to `t`. */
  private grantedToAnother(hold: Hold, t: number): boolean {
    for (const [client, grantT] of this.lastGrant.get(hold.resource) ?? []) {
      if (client !== hold.client && grantT > hold.startT && grantT <= t) return true;
    }
    return false;
  }

  /**
   * A PERSIST took a held lock's TTL away: named at once, since no correct
   * lock does this and the holder's crash, whenever it comes, leaves the key
   * forever.
   */
  private persist(signal: Extract<RawLockSignal, { kind: 'persist' }>): void {
    const hold = this.byResource.get(signal.key)?.get(signal.client);
    if (!hold || hold.released || hold.expiresAt <= signal.t) return;
    hold.ttlMs = null;
    hold.expiresAt = Infinity;
    hold.validUntil = Infinity;
    hold.noTtlNamed = true;
    const holder = clientValue(hold.client);
    this.diagnoses.add({
      kind: 'lock-without-ttl-never-frees',
      check: 'liveness',
      subject: hold.resource,
      words: words('checker.diagnosis.lockWithoutTtlPersist', {
        by: clientValue(signal.by),
        own: signal.by === hold.client ? 'yes' : 'no',
        holder,
        resource: code(hold.resource),
        at: this.at(signal.t),
      }),
      seqs: [hold.startSeq, signal.seq],
      window: { from: signal.t, to: signal.t },
      clients: [hold.client, signal.by],
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

  private checkVotes(event: LockEvent): void {
    const votes = event.votes;
    if (!votes || votes.length === 0) return;
    const ok = votes.filter((v) => v.ok).length;
    const quorum = event.quorum ?? Math.floor(votes.length / 2) + 1;
    if (ok >= quorum) return;
    this.diagnoses.add({
      kind: 'acquired-without-quorum',
      check: 'mutual-exclusion',
      subject: `${event.resources.join(',')}|${quorum}`,
      words: words('checker.diagnosis.acquiredWithoutQuorum', {
        client: clientValue(event.client),
        resource: code(event.resources.join(', ')),
        ok,
        votes: votes.length,
        quorum,
      }),
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
      hold.pausedPastValidity = true;
      const validity = hold.validityMs ?? (typeof hold.ttlMs === 'number' ? hold.ttlMs : left);
      const tail =
        left >= validity - 0.5
          ? words('checker.diagnosis.pauseLongerThanValidity', { validity: duration(validity) })
          : words('checker.diagnosis.pauseLongerThanLeft', { left: duration(left), validity: duration(validity) });
      const said = { client: clientValue(signal.client), paused: duration(pausedMs), tail: { words: tail }, resource: code(hold.resource) };
      const subject = `${signal.client}|${hold.resource}`;
      const fenced = words('checker.diagnosis.pausedFenced', said);
      this.pauseWords.set(signal.client, { subject, fenced });
      this.diagnoses.add({
        kind: 'pause-beyond-validity',
        check: 'mutual-exclusion',
        subject,
        // Lesson 6's answer first (check what is left of the lock before the side effect); fencing is the next step, not advice to a program that fences.
        words: this.fencingClients.has(signal.client) ? fenced : words('checker.diagnosis.paused', said),
        seqs: [hold.startSeq, signal.pausedSeq, signal.seq],
        window: { from: hold.validUntil, to: signal.t },
        clients: [signal.client],
      });
    }
  }

  /** A store write carrying a fencing token: its client fences, so a pause of its needs no advice to fence. */
  fencedWrite(client: number): void {
    this.fencingClients.add(client);
    const words = this.pauseWords.get(client);
    if (!words) return;
    this.diagnoses.reword('pause-beyond-validity', words.subject, words.fenced);
    this.pauseWords.delete(client);
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
