/**
 * Lock signals for code that does not use the `redlock` module: which of the
 * keyspace's reports are a lock being acquired, extended or released, and
 * with which token. holds.ts turns them into holds.
 *
 * A key is a lock key once something treats it as one: a SET NX or SETNX on
 * it, a setting script, a LockEvent naming it, or the lab's `lockKeys`
 * option. A plain SET is an acquire only on a lock key, or right after the
 * same client read the key as free (a hand-made check-then-set lock).
 *
 * A lesson that names its locks (`lockKeys`) is taken at its word: a script's
 * SET or a SET after a read that found the key free makes a lock only of a
 * named key (or one already taken with NX). Otherwise a fencing counter kept
 * with GET and SET, or by a script, would read as a lock without a TTL, and a
 * right answer would be failed for it (and a wrong one for the wrong reason). A
 * SETNX is an acquire without a TTL: the PEXPIRE that usually follows it is
 * read as the TTL arriving (holds.ts), and a PERSIST as it going away.
 */
import type { RedisCompleteEvent, RedisInvokeEvent } from '../history';
import type { KeyEntry, KeyspaceObserver, ParsedSet } from './keyspace';

export type RawLockSignal =
  | {
      kind: 'acquire';
      outcome: 'ok' | 'fail' | 'unknown';
      client: number;
      node: number;
      key: string;
      token: string;
      /** null: set without expiry; undefined: unknown. */
      ttlMs: number | null | undefined;
      /** When the command was sent: an acquire of unknown outcome may have taken effect any time from here to `t`. */
      invokeT: number;
      t: number;
      seq: number;
    }
  | { kind: 'extend'; client: number; node: number; key: string; ttlMs: number | undefined; t: number; seq: number }
  | { kind: 'release'; client: number; node: number; key: string; t: number; seq: number }
  /** A renewal script that did not renew: failed, timed out, or found the key no longer held the token. */
  | { kind: 'extend-failed'; client: number; node: number; key: string; t: number; seq: number }
  /** A PERSIST removed the key's TTL: `client` is whose lock it is (the key's setter), `by` who sent it. */
  | { kind: 'persist'; client: number; by: number; node: number; key: string; t: number; seq: number };

/** Most events imply no lock signal: share one empty answer rather than allocate one per event. */
const NONE: readonly RawLockSignal[] = Object.freeze([]);

export class LockSignals implements KeyspaceObserver {
  private readonly lockKeys = new Set<string>();
  /** The signals of the event being observed; allocated on the first, so an event without any costs nothing. */
  private found: RawLockSignal[] | null = null;
  /** Whether the lesson named its lock keys (see above). */
  private readonly named: boolean;

  constructor(extraLockKeys: readonly string[]) {
    for (const key of extraLockKeys) this.lockKeys.add(key);
    this.named = extraLockKeys.length > 0;
  }

  /** Whether a SET without NX (by a script, or after a read found the key free) may make `key` a lock. */
  private mayInfer(key: string): boolean {
    return !this.named || this.lockKeys.has(key);
  }

  addLockKey(key: string): void {
    this.lockKeys.add(key);
  }

  isLockKey(key: string): boolean {
    return this.lockKeys.has(key);
  }

  /** The signals the last event implied (usually none), handed over once. */
  take(): readonly RawLockSignal[] {
    const found = this.found;
    if (found === null) return NONE;
    this.found = null;
    return found;
  }

  set(invoke: RedisInvokeEvent, done: RedisCompleteEvent, set: ParsedSet, took: boolean, replaced: KeyEntry | undefined, ttlMs: number | null | undefined, readFreeAt: number | undefined): void {
    if (set.nx) this.lockKeys.add(set.key);
    const isLockSet = set.nx || (readFreeAt !== undefined && this.mayInfer(set.key)) || this.lockKeys.has(set.key);
    if (done.phase === 'info') {
      if (isLockSet && !set.xx) this.acquire(invoke, done, set.key, set.value, set.ttlMs, 'unknown');
      return;
    }
    if (done.phase === 'fail') {
      if (isLockSet && set.nx) this.acquire(invoke, done, set.key, set.value, set.ttlMs, 'fail');
      return;
    }
    if (!took) {
      // NX refused (the key existed) or XX refused (it did not).
      if (set.nx) this.acquire(invoke, done, set.key, set.value, set.ttlMs, 'fail');
      return;
    }
    // SET XX of the value the key already held: the holder renewing its own lock.
    if (set.xx && replaced?.value === set.value) this.extend(invoke, done, set.key, ttlMs ?? undefined);
    else if (isLockSet && !set.xx) this.acquire(invoke, done, set.key, set.value, set.ttlMs, 'ok');
  }

  scriptSet(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, token: string, ttlMs: number | undefined, mine: boolean, took: boolean): void {
    if (!this.mayInfer(key)) return;
    if (done.phase === 'info') {
      // A renewal of unknown outcome is not counted: the hold keeps the expiry we know of.
      if (!mine) {
        this.lockKeys.add(key);
        this.acquire(invoke, done, key, token, ttlMs, 'unknown');
      }
      return;
    }
    if (done.phase !== 'ok') return;
    if (mine) {
      if (took) this.extend(invoke, done, key, ttlMs);
      return;
    }
    this.lockKeys.add(key);
    this.acquire(invoke, done, key, token, ttlMs, took ? 'ok' : 'fail');
  }

  /** Only a definite delete releases: one that failed or may not have run leaves the hold until its key expires. */
  deleted(invoke: RedisInvokeEvent, done: RedisCompleteEvent, keys: readonly string[]): void {
    for (const key of keys) {
      if (this.lockKeys.has(key)) this.push({ kind: 'release', client: invoke.client, node: invoke.node, key, t: done.t, seq: done.seq });
    }
  }

  /** A script that renews is an extend script, so its keys count (unless the lesson named its locks); a bare EXPIRE only on a lock key. */
  expired(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, ttlMs: number | undefined, byScript: boolean): void {
    if ((byScript && this.mayInfer(key)) || this.lockKeys.has(key)) this.extend(invoke, done, key, ttlMs);
  }

  renewalFailed(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string): void {
    this.push({ kind: 'extend-failed', client: invoke.client, node: invoke.node, key, t: done.t, seq: done.seq });
  }

  /** Only on a lock key: a PERSIST elsewhere is no lock's business. */
  persisted(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, entry: KeyEntry | undefined): void {
    if (!this.lockKeys.has(key)) return;
    const holder = entry?.setter ?? invoke.client;
    this.push({ kind: 'persist', client: holder, by: invoke.client, node: invoke.node, key, t: done.t, seq: done.seq });
  }

  private acquire(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, token: string, ttlMs: number | null | undefined, outcome: 'ok' | 'fail' | 'unknown'): void {
    this.push({ kind: 'acquire', outcome, client: invoke.client, node: invoke.node, key, token, ttlMs, invokeT: invoke.t, t: done.t, seq: done.seq });
  }

  private extend(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, ttlMs: number | undefined): void {
    this.push({ kind: 'extend', client: invoke.client, node: invoke.node, key, ttlMs, t: done.t, seq: done.seq });
  }

  private push(signal: RawLockSignal): void {
    if (this.found === null) this.found = [signal];
    else this.found.push(signal);
  }
}
