/**
 * History → lock operations: the one reading of "what a lock acquire is" that
 * the timeline, the measurements and the votes view fold (Jepsen's history →
 * ops → checkers). Incremental: `observe` one event at a time, in history
 * order; each call hands back the operations that event made (usually none).
 *
 * An acquire is either
 * - **the `redlock` module's** (any code that writes `lock` events): from its
 *   `attempt` event to its `acquired` / `failed` event, same client and token.
 *   The commands it sends while open (SET NX, SETNX, its script by EVAL or
 *   EVALSHA, an EVALSHA answered NOSCRIPT then its EVAL) are its votes; or
 * - **hand-written commands** on a key no `lock` event names: a `SET key token
 *   NX`, a `SETNX key token`, or an EVAL of a script that sets with NX. The
 *   same token sent by one client to several nodes, none of them asked twice,
 *   is one acquire (a hand-written Redlock), decided each time every node asked
 *   so far has answered: granted when most of them said OK, else timed out when
 *   one did not answer in time, else failed. A release is a DEL, UNLINK or a
 *   script naming a key the client holds, once it completed ok; a PEXPIRE,
 *   EXPIRE or a script that renews (calls PEXPIRE/EXPIRE, not DEL) on it is
 *   an extension when Redis said yes. An EVALSHA is read by its script once
 *   SCRIPT LOAD or a NOSCRIPT and the EVAL after it taught us; one we cannot
 *   read naming a held key is taken as its release.
 *
 * A client that crashed, exited or failed asks no more: its acquires still
 * waiting are unanswered, and it holds nothing.
 */
import type { ClientEvent, HistoryEvent, LockEvent, RedisCompleteEvent, RedisInvokeEvent } from '../history';
import { acquireRequest, commandsCalled, upperCommand, releaseCandidates, reportedAnswer, scriptArgs, scriptTtl, TIMED_OUT, truthy, voteAnswer, type AcquireRequest, type VoteAnswer } from './commands';

export type AcquireSource = 'lock-event' | 'commands';
/** How an acquire ended: granted, refused (failed), a node out of time (timeout), or never answered. */
export type AcquireOutcome = 'granted' | 'failed' | 'timeout' | 'unanswered';

/** One node asked, and its answer ('pending' until it comes). */
export interface VoteOp {
  node: number;
  sentT: number;
  t: number | null;
  answer: VoteAnswer | 'pending';
  error?: string;
}

export interface Acquire {
  id: number;
  client: number;
  source: AcquireSource;
  /** What is locked: the lock event's resources, or the command's key. */
  resources: readonly string[];
  key: string;
  token: string;
  /** When it was asked (the attempt event, or the first command). */
  from: number;
  /** False for an answer without an attempt of its own (a helper that only reports the result): it has no latency. */
  asked: boolean;
  /** The module's attempt number, when it said. */
  attempt?: number;
  /** commands: the TTL asked for (null: none; undefined: one we cannot date). */
  ttlMs: number | null | undefined;
  /** Each node's last vote in this acquire. */
  votes: Map<number, VoteOp>;
  outcome: AcquireOutcome | null;
  decidedT: number | null;
}

interface At {
  t: number;
  seq: number;
}

export type LockOp =
  /** An acquire began. */
  | ({ kind: 'attempt'; acquire: Acquire } & At)
  /** The module tried again with the same token before answering: the earlier acquire is unanswered. */
  | ({ kind: 'retried'; acquire: Acquire } & At)
  | ({ kind: 'vote'; acquire: Acquire; vote: VoteOp } & At)
  | ({ kind: 'answer'; acquire: Acquire; vote: VoteOp } & At)
  /**
   * An acquire was decided (hand-written ones again when a late node answers). `validUntil`: when the holder may
   * no longer assume it holds the lock (null: never). `event`: the module's own words, when it said; `node`: the
   * node whose answer decided a hand-written acquire.
   */
  | ({ kind: 'decided'; acquire: Acquire; outcome: Exclude<AcquireOutcome, 'unanswered'>; validUntil: number | null; event: LockEvent | null; node: number | null } & At)
  /** A hold renewed: by the module (its event), or a hand-written PEXPIRE/EXPIRE or renewal script on a held key. */
  | ({ kind: 'extended'; client: number; token: string; key: string; ttlMs: number | undefined; validUntil: number | null; event: LockEvent | null } & At)
  | ({ kind: 'extend-failed'; client: number; key: string; event: LockEvent | null } & At)
  /** A hold ended by its holder: `failed` when the module said its release failed; `acquire` is the hand-written hold. */
  | ({ kind: 'released'; client: number; token: string | null; key: string; failed: boolean; command: string; acquire: Acquire | null; event: LockEvent | null } & At)
  /** A client can act no more: its acquires still waiting are `unanswered`. */
  | ({ kind: 'ended'; client: number; unanswered: Acquire[]; event: ClientEvent } & At);

const NONE: readonly LockOp[] = Object.freeze([]);

/** A hand-written acquire over one or more nodes. */
interface Group {
  acquire: Acquire;
  pending: number;
  closed: boolean;
}

export class LockOpReader {
  private nextId = 0;
  private found: LockOp[] | null = null;
  /** Keys some `lock` event named: hand-written commands on them are the module's business. */
  private readonly lockResources = new Set<string>();
  /** The module's open acquires, per client and token (maps of maps: no key string built per event). */
  private readonly moduleOpen = new Map<number, Map<string, Acquire>>();
  private moduleOpenCount = 0;
  /** Hand-written: the current acquire per `client|key`. */
  private readonly groups = new Map<string, Group>();
  /** Votes in flight, by opId. */
  private readonly inFlight = new Map<number, { acquire: Acquire; vote: VoteOp; group: Group | null; tail: string | null }>();
  /** An EVALSHA answered NOSCRIPT, per `client|node`: the EVAL that follows with the same arguments is the same vote. */
  private readonly noScript = new Map<string, { acquire: Acquire; group: Group | null; tail: string }>();
  /** Hand-written holds per `client|key`, and releases in flight by opId. */
  private readonly held = new Map<string, Acquire>();
  private readonly releasing = new Map<number, { acquire: Acquire; key: string }>();
  /** Renewals of hand-written holds in flight, by opId: the TTL they ask for (undefined: one we cannot read). */
  private readonly extending = new Map<number, { acquire: Acquire; key: string; ttlMs: number | undefined }>();
  /** Scripts by SHA (SCRIPT LOAD, or an EVALSHA answered NOSCRIPT and the EVAL after it), to tell a renewal from a release. */
  private readonly scripts = new Map<string, string>();
  /** Per `client|node`, the last EVALSHA answered NOSCRIPT; and EVALSHA / SCRIPT LOAD in flight, by opId. */
  private readonly missedSha = new Map<string, { sha: string; tail: string }>();
  private readonly shaInFlight = new Map<number, { sha: string; tail: string } | { load: string }>();

  observe(e: HistoryEvent): readonly LockOp[] {
    switch (e.type) {
      case 'lock':
        this.onLock(e);
        break;
      case 'redis':
        if (e.phase === 'invoke') this.onInvoke(e);
        else this.onComplete(e);
        break;
      case 'client':
        if (e.event === 'crash' || e.event === 'exit' || e.event === 'error') this.onEnd(e);
        break;
      default:
        break;
    }
    const found = this.found;
    if (found === null) return NONE;
    this.found = null;
    return found;
  }

  private push(op: LockOp): void {
    if (this.found === null) this.found = [op];
    else this.found.push(op);
  }

  private newAcquire(client: number, source: AcquireSource, resources: readonly string[], token: string, t: number, ttlMs: number | null | undefined): Acquire {
    return { id: this.nextId++, client, source, resources, key: resources[0] ?? '', token, from: t, asked: true, ttlMs, votes: new Map(), outcome: null, decidedT: null };
  }

  private onLock(e: LockEvent): void {
    for (const r of e.resources) this.lockResources.add(r);
    const t = e.t;
    const seq = e.seq;
    switch (e.event) {
      case 'attempt': {
        const previous = this.takeModuleOpen(e.client, e.token);
        if (previous) {
          previous.outcome = 'unanswered';
          previous.decidedT = e.t;
          this.push({ kind: 'retried', acquire: previous, t, seq });
        }
        const acquire = this.newAcquire(e.client, 'lock-event', e.resources, e.token, e.t, e.ttlMs);
        if (e.attempt !== undefined) acquire.attempt = e.attempt;
        this.putModuleOpen(acquire);
        this.push({ kind: 'attempt', acquire, t, seq });
        return;
      }
      case 'acquired':
      case 'failed': {
        let acquire = this.takeModuleOpen(e.client, e.token);
        if (!acquire) {
          acquire = this.newAcquire(e.client, 'lock-event', e.resources, e.token, e.t, e.ttlMs);
          acquire.asked = false;
          this.push({ kind: 'attempt', acquire, t, seq });
        }
        this.fillReported(acquire, e);
        const outcome = e.event === 'acquired' ? 'granted' : (e.votes ?? []).some((v) => v.error !== undefined && TIMED_OUT.test(v.error)) ? 'timeout' : 'failed';
        acquire.outcome = outcome;
        acquire.decidedT = e.t;
        this.push({ kind: 'decided', acquire, outcome, validUntil: validUntil(e), event: e, node: null, t, seq });
        return;
      }
      case 'extended':
        this.push({ kind: 'extended', client: e.client, token: e.token, key: e.resources[0] ?? '', ttlMs: e.ttlMs, validUntil: validUntil(e), event: e, t, seq });
        return;
      case 'extend-failed':
        this.push({ kind: 'extend-failed', client: e.client, key: e.resources[0] ?? '', event: e, t, seq });
        return;
      case 'released':
      case 'release-failed':
        this.push({ kind: 'released', client: e.client, token: e.token, key: e.resources[0] ?? '', failed: e.event === 'release-failed', command: '', acquire: null, event: e, t, seq });
        return;
    }
  }

  private putModuleOpen(acquire: Acquire): void {
    let byToken = this.moduleOpen.get(acquire.client);
    if (!byToken) this.moduleOpen.set(acquire.client, (byToken = new Map()));
    if (!byToken.has(acquire.token)) this.moduleOpenCount += 1;
    byToken.set(acquire.token, acquire);
  }

  /** The client's open acquire for a token, no longer open. */
  private takeModuleOpen(client: number, token: string): Acquire | undefined {
    const byToken = this.moduleOpen.get(client);
    const acquire = byToken?.get(token);
    if (acquire === undefined) return undefined;
    byToken!.delete(token);
    this.moduleOpenCount -= 1;
    return acquire;
  }

  /** Votes the module reported whose commands the history cannot name (an EVALSHA refused before any node taught us its script). */
  private fillReported(acquire: Acquire, e: LockEvent): void {
    for (const v of e.votes ?? []) {
      if (v.node <= 0 || acquire.votes.has(v.node)) continue;
      const vote: VoteOp = { node: v.node, sentT: acquire.from, t: e.t, answer: reportedAnswer(v) };
      if (v.error !== undefined) vote.error = v.error;
      acquire.votes.set(v.node, vote);
    }
  }

  private onInvoke(e: RedisInvokeEvent): void {
    const command = upperCommand(e.command);
    if (command === 'EVALSHA' || command === 'SCRIPT') this.learnScripts(e, command);
    if (command === 'EVAL' && this.noScript.size > 0) {
      const retried = this.noScript.get(`${e.client}|${e.node}`);
      if (retried && retried.tail === tailOf(e)) {
        this.noScript.delete(`${e.client}|${e.node}`);
        this.ask(retried.acquire, retried.group, e);
        return;
      }
    }
    const request = acquireRequest(e);
    const module = this.moduleVote(e, command, request);
    if (module) {
      this.ask(module, null, e);
      return;
    }
    if (request && !this.lockResources.has(request.key)) {
      const [acquire, group] = this.groupFor(e, request.key, request.token, request.ttlMs);
      this.ask(acquire, group, e);
      return;
    }
    if (command === 'EVAL') this.learnScripts(e, command);
    if (this.held.size > 0) this.onHeldCommand(e, command);
  }

  /** A command on a key the client holds by hand: a release, or a renewal (PEXPIRE/EXPIRE, a script that renews). */
  private onHeldCommand(e: RedisInvokeEvent, command: string): void {
    if (command === 'PEXPIRE' || command === 'EXPIRE') {
      const [key, amount] = e.args;
      const acquire = key === undefined ? undefined : this.held.get(`${e.client}|${key}`);
      const ms = Number(amount) * (command === 'EXPIRE' ? 1000 : 1);
      if (acquire && key !== undefined) this.extending.set(e.opId, { acquire, key, ttlMs: Number.isFinite(ms) ? ms : undefined });
      return;
    }
    const script = command === 'EVAL' ? (e.args[0] ?? '') : command === 'EVALSHA' ? this.scripts.get(e.args[0] ?? '') : undefined;
    const called = script === undefined ? null : commandsCalled(script);
    // A script we cannot read (an EVALSHA never taught us) naming a held key is taken as its release, as a DEL is.
    const renews = called !== null && !called.has('del') && !called.has('unlink') && (called.has('pexpire') || called.has('expire'));
    if (called !== null && !renews && !called.has('del') && !called.has('unlink')) return;
    for (const key of releaseCandidates(e)) {
      const acquire = this.held.get(`${e.client}|${key}`);
      if (!acquire) continue;
      if (!renews) this.releasing.set(e.opId, { acquire, key });
      else {
        const ttl = scriptTtl(scriptArgs(e.args)?.argv ?? []);
        this.extending.set(e.opId, { acquire, key, ttlMs: ttl === undefined ? undefined : called.has('pexpire') ? ttl : ttl * 1000 });
      }
      return;
    }
  }

  private learnScripts(e: RedisInvokeEvent, command: string): void {
    if (command === 'EVALSHA') this.shaInFlight.set(e.opId, { sha: e.args[0] ?? '', tail: tailOf(e) });
    else if (command === 'SCRIPT' && upperCommand(e.args[0] ?? '') === 'LOAD' && e.args[1] !== undefined) this.shaInFlight.set(e.opId, { load: e.args[1] });
    else if (command === 'EVAL' && this.missedSha.size > 0) {
      const at = `${e.client}|${e.node}`;
      const missed = this.missedSha.get(at);
      this.missedSha.delete(at);
      if (missed && missed.sha !== '' && missed.tail === tailOf(e) && e.args[0] !== undefined) this.scripts.set(missed.sha, e.args[0]);
    }
  }

  private learnedScript(e: RedisCompleteEvent): void {
    const flight = this.shaInFlight.get(e.opId);
    if (!flight) return;
    this.shaInFlight.delete(e.opId);
    if ('load' in flight) {
      if (e.phase === 'ok' && typeof e.reply === 'string') this.scripts.set(e.reply, flight.load);
    } else if (e.phase === 'fail' && /NOSCRIPT/.test(e.error ?? '')) this.missedSha.set(`${e.client}|${e.node}`, flight);
  }

  /** A command sent while the module's acquire for its token is open: one of its votes. */
  private moduleVote(e: RedisInvokeEvent, command: string, request: AcquireRequest | null): Acquire | null {
    if (this.moduleOpenCount === 0) return null;
    let token: string | undefined;
    if (command === 'SET' || command === 'SETNX') {
      if (request === null) return null;
      token = request.token;
    } else if (command === 'EVAL' || command === 'EVALSHA') {
      const numKeys = Number(e.args[1]);
      if (!Number.isInteger(numKeys) || numKeys < 1) return null;
      token = e.args[2 + numKeys];
    }
    return token === undefined ? null : (this.moduleOpen.get(e.client)?.get(token) ?? null);
  }

  /** The hand-written acquire a command joins: the same token, on a node not yet asked; else a new one. */
  private groupFor(e: RedisInvokeEvent, key: string, token: string, ttlMs: number | null | undefined): [Acquire, Group] {
    const k = `${e.client}|${key}`;
    const current = this.groups.get(k);
    if (current && !current.closed && current.acquire.token === token && !current.acquire.votes.has(e.node)) return [current.acquire, current];
    const acquire = this.newAcquire(e.client, 'commands', [key], token, e.t, ttlMs);
    const group: Group = { acquire, pending: 0, closed: false };
    this.groups.set(k, group);
    this.push({ kind: 'attempt', acquire, t: e.t, seq: e.seq });
    return [acquire, group];
  }

  private ask(acquire: Acquire, group: Group | null, e: RedisInvokeEvent): void {
    const vote: VoteOp = { node: e.node, sentT: e.t, t: null, answer: 'pending' };
    acquire.votes.set(e.node, vote);
    if (group) group.pending += 1;
    this.inFlight.set(e.opId, { acquire, vote, group, tail: upperCommand(e.command) === 'EVALSHA' ? tailOf(e) : null });
    this.push({ kind: 'vote', acquire, vote, t: e.t, seq: e.seq });
  }

  private onComplete(e: RedisCompleteEvent): void {
    if (this.shaInFlight.size > 0) this.learnedScript(e);
    if (this.extending.size > 0 && this.extended(e)) return;
    const flight = this.inFlight.get(e.opId);
    if (flight) {
      this.inFlight.delete(e.opId);
      this.answer(flight.acquire, flight.vote, flight.group, flight.tail, e);
      return;
    }
    const release = this.releasing.get(e.opId);
    if (!release) return;
    this.releasing.delete(e.opId);
    if (e.phase !== 'ok') return;
    const k = `${e.client}|${release.key}`;
    if (this.held.get(k) === release.acquire) this.held.delete(k);
    this.push({ kind: 'released', client: e.client, token: release.acquire.token, key: release.key, failed: false, command: upperCommand(e.command), acquire: release.acquire, event: null, t: e.t, seq: e.seq });
  }

  /** A renewal of a hand-written hold answered: renewed when Redis said yes. */
  private extended(e: RedisCompleteEvent): boolean {
    const renewal = this.extending.get(e.opId);
    if (!renewal) return false;
    this.extending.delete(e.opId);
    const { acquire, key, ttlMs } = renewal;
    if (this.held.get(`${e.client}|${key}`) !== acquire) return true;
    if (e.phase === 'ok' && truthy(e.reply)) {
      this.push({ kind: 'extended', client: e.client, token: acquire.token, key, ttlMs, validUntil: ttlMs === undefined ? null : e.t + ttlMs, event: null, t: e.t, seq: e.seq });
    } else this.push({ kind: 'extend-failed', client: e.client, key, event: null, t: e.t, seq: e.seq });
    return true;
  }

  private answer(acquire: Acquire, vote: VoteOp, group: Group | null, tail: string | null, e: RedisCompleteEvent): void {
    if (tail !== null && e.phase === 'fail' && /NOSCRIPT/.test(e.error ?? '')) {
      // Not an answer yet: the client sends the script itself next.
      if (group) group.pending -= 1;
      this.noScript.set(`${e.client}|${e.node}`, { acquire, group, tail });
      return;
    }
    vote.t = e.t;
    vote.answer = voteAnswer(e);
    if (e.phase !== 'ok' && e.error !== undefined) vote.error = e.error;
    this.push({ kind: 'answer', acquire, vote, t: e.t, seq: e.seq });
    if (group === null || group.closed) return;
    group.pending -= 1;
    if (group.pending > 0) return;
    // Every node asked so far has answered. A slow program may still ask another node with the same token (its
    // commands paced one by one): then the acquire is decided again when that one answers.
    let ok = 0;
    let timedOut = 0;
    for (const v of acquire.votes.values()) {
      if (v.answer === 'ok') ok += 1;
      else if (v.answer === 'timeout') timedOut += 1;
    }
    const outcome = ok * 2 > acquire.votes.size ? 'granted' : timedOut > 0 ? 'timeout' : 'failed';
    acquire.outcome = outcome;
    acquire.decidedT = e.t;
    const k = `${acquire.client}|${acquire.key}`;
    if (outcome === 'granted') this.held.set(k, acquire);
    else if (this.held.get(k) === acquire) this.held.delete(k);
    const ttl = acquire.ttlMs;
    this.push({ kind: 'decided', acquire, outcome, validUntil: typeof ttl === 'number' && ttl > 0 ? e.t + ttl : null, event: null, node: e.node, t: e.t, seq: e.seq });
  }

  private onEnd(e: ClientEvent): void {
    const unanswered: Acquire[] = [];
    const open = this.moduleOpen.get(e.client);
    if (open) {
      this.moduleOpen.delete(e.client);
      this.moduleOpenCount -= open.size;
      for (const acquire of open.values()) {
        acquire.outcome = 'unanswered';
        acquire.decidedT = e.t;
        unanswered.push(acquire);
      }
    }
    for (const [k, group] of this.groups) {
      if (group.acquire.client !== e.client) continue;
      this.groups.delete(k);
      group.closed = true;
      if (group.pending > 0 && group.acquire.outcome === null) {
        group.acquire.outcome = 'unanswered';
        group.acquire.decidedT = e.t;
        unanswered.push(group.acquire);
      }
    }
    for (const k of [...this.held.keys()]) if (this.held.get(k)?.client === e.client) this.held.delete(k);
    for (const [opId, release] of this.releasing) if (release.acquire.client === e.client) this.releasing.delete(opId);
    for (const [opId, renewal] of this.extending) if (renewal.acquire.client === e.client) this.extending.delete(opId);
    this.push({ kind: 'ended', client: e.client, unanswered, event: e, t: e.t, seq: e.seq });
  }
}

/** An EVALSHA's or EVAL's arguments after the script: the same for a NOSCRIPT and the EVAL that follows it. */
function tailOf(e: RedisInvokeEvent): string {
  return e.args.slice(1).join('\u0000');
}

/** The module's validity, else its TTL, from the event's time (null: it said neither). */
function validUntil(e: LockEvent): number | null {
  if (e.validityMs !== undefined) return e.t + e.validityMs;
  if (e.ttlMs !== undefined) return e.t + e.ttlMs;
  return null;
}

/** Every operation of a whole history, in order (tests and one-shot readers). */
export function readLockOps(history: readonly HistoryEvent[]): LockOp[] {
  const reader = new LockOpReader();
  const ops: LockOp[] = [];
  for (const e of history) for (const op of reader.observe(e)) ops.push(op);
  return ops;
}
