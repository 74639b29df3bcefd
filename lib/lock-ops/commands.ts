/**
 * What one Redis command says about a lock, read once for every reader of a
 * history (the checker's keyspace, the acquire reader in ./acquires.ts, and
 * through it the timeline, the measurements and the votes view). Pure and
 * per command: nothing here remembers anything between commands.
 */
import type { RedisCompleteEvent, RedisInvokeEvent, ReplyJson } from '../history';

export interface ParsedSet {
  key: string;
  value: string;
  nx: boolean;
  xx: boolean;
  keepTtl: boolean;
  /** SET … GET or GETSET: the reply is the old value, not OK, so it says nothing alone about whether the SET took effect. */
  get: boolean;
  /** null: no TTL (SETNX, a SET without EX/PX); undefined: a TTL we cannot date (PXAT, EXAT). */
  ttlMs: number | null | undefined;
}

/**
 * A command's name in upper case, as every reader compares it. Remembered per spelling: a history repeats a
 * handful of names thousands of times, and upper-casing each afresh was a measurable share of reading one
 * (the timeline lays out 10,000 events per frame). Bounded, since the names are whatever a program sent.
 */
const UPPER = new Map<string, string>();
const UPPER_LIMIT = 512;
export function upperCommand(name: string): string {
  const known = UPPER.get(name);
  if (known !== undefined) return known;
  const upper = name.toUpperCase();
  if (UPPER.size < UPPER_LIMIT) UPPER.set(name, upper);
  return upper;
}

/** An error's words that mean the command ran out of time (ioredis's "Command timed out", a lesson's "timeout"). */
export const TIMED_OUT = /timed?\s?out/i;

/** The SET family as one shape; `command` is upper-case. */
export function parseSetFamily(command: string, args: readonly string[]): ParsedSet | null {
  switch (command) {
    case 'SET':
      return parseSet(args);
    case 'SETNX': {
      // SETNX key value: SET key value NX, without a TTL (answers 1 or 0).
      const [key, value] = args;
      return key === undefined || value === undefined ? null : { key, value, nx: true, xx: false, keepTtl: false, get: false, ttlMs: null };
    }
    case 'SETEX':
    case 'PSETEX': {
      // SETEX key seconds value / PSETEX key milliseconds value.
      const [key, amount, value] = args;
      if (key === undefined || value === undefined) return null;
      const ms = Number(amount) * (command === 'SETEX' ? 1000 : 1);
      return { key, value, nx: false, xx: false, keepTtl: false, get: false, ttlMs: Number.isFinite(ms) ? ms : undefined };
    }
    case 'GETSET': {
      // GETSET key value: SET key value GET (it clears the TTL, like a plain SET).
      const [key, value] = args;
      return key === undefined || value === undefined ? null : { key, value, nx: false, xx: false, keepTtl: false, get: true, ttlMs: null };
    }
    default:
      return null;
  }
}

function parseSet(args: readonly string[]): ParsedSet | null {
  const key = args[0];
  const value = args[1];
  if (key === undefined || value === undefined) return null;
  const set: ParsedSet = { key, value, nx: false, xx: false, keepTtl: false, get: false, ttlMs: null };
  for (let i = 2; i < args.length; i++) {
    const option = upperCommand(args[i] ?? '');
    if (option === 'NX') set.nx = true;
    else if (option === 'XX') set.xx = true;
    else if (option === 'KEEPTTL') set.keepTtl = true;
    else if (option === 'GET') set.get = true;
    else if (option === 'PX' || option === 'EX') {
      const next = Number(args[i + 1]);
      set.ttlMs = Number.isFinite(next) ? (option === 'PX' ? next : next * 1000) : undefined;
      i++;
    } else if (option === 'PXAT' || option === 'EXAT') {
      // Absolute wall-clock expiry: not comparable with the lab clock.
      set.ttlMs = undefined;
      i++;
    }
  }
  return set;
}

/**
 * Whether a SET that completed ok took effect, from its reply: SET answers
 * OK or nil, SETNX 1 or 0; with GET the reply is the old value, so NX took
 * effect when there was none (nil), XX when there was one, and neither always.
 */
export function setTookEffect(set: ParsedSet, reply: ReplyJson | undefined): boolean {
  if (set.get) {
    if (set.nx) return reply === null;
    if (set.xx) return reply !== null;
    return true;
  }
  return reply !== null && replyCount(reply) !== 0;
}

export function replyCount(reply: ReplyJson | undefined): number {
  if (typeof reply === 'number') return reply;
  if (typeof reply === 'string' && /^\d+$/.test(reply)) return Number(reply);
  return Number.NaN;
}

export function truthy(reply: ReplyJson | undefined): boolean {
  if (reply === 'OK' || reply === true) return true;
  const n = replyCount(reply);
  return Number.isFinite(n) && n > 0;
}

/** EVAL/EVALSHA's keys and the arguments after them; null when its key count is not a count. */
export function scriptArgs(args: readonly string[]): { keys: string[]; argv: string[] } | null {
  const numKeys = Number(args[1]);
  if (!Number.isInteger(numKeys) || numKeys < 0) return null;
  return { keys: args.slice(2, 2 + numKeys), argv: args.slice(2 + numKeys) };
}

/** A script's TTL: the first numeric argument after its token (ARGV[1]). */
export function scriptTtl(argv: readonly string[]): number | undefined {
  const ttlArg = argv.find((a, i) => i > 0 && Number.isFinite(Number(a)) && a.trim() !== '');
  return ttlArg === undefined ? undefined : Number(ttlArg);
}

const CALLED = /\bcall\(\s*['"]([a-zA-Z]+)['"]/g;

/** The Redis commands a Lua script calls (`redis.call('del', …)`, `pcall` too), lower-case. */
export function commandsCalled(script: string): Set<string> {
  const found = new Set<string>();
  for (const match of script.matchAll(CALLED)) found.add((match[1] ?? '').toLowerCase());
  return found;
}

/** A hand-written acquire script: one that sets its key with NX. */
export function isAcquireScript(script: string): boolean {
  return /call\(\s*['"]set['"]/i.test(script) && /['"]nx['"]/i.test(script);
}

/** How a command asked a node for a lock. */
export type AcquireVia = 'set-nx' | 'setnx' | 'script';

/** One node asked for a lock: `key` set to `token` only if it is free. */
export interface AcquireRequest {
  key: string;
  token: string;
  /** null: without expiry (SETNX, SET NX without PX/EX); undefined: a TTL we cannot date or read. */
  ttlMs: number | null | undefined;
  via: AcquireVia;
}

/**
 * Whether a command asks for a lock: `SET key token NX …`, `SETNX key token`,
 * or an EVAL of a script that sets with NX (its first key, its ARGV[1]).
 * An EVALSHA names no script: only the reader, which knows the acquire it
 * belongs to, can tell (./acquires.ts).
 */
export function acquireRequest(invoke: RedisInvokeEvent): AcquireRequest | null {
  const command = upperCommand(invoke.command);
  if (command === 'SET' || command === 'SETNX') {
    const set = parseSetFamily(command, invoke.args);
    if (!set || !set.nx) return null;
    return { key: set.key, token: set.value, ttlMs: set.ttlMs, via: command === 'SET' ? 'set-nx' : 'setnx' };
  }
  if (command !== 'EVAL' || !isAcquireScript(invoke.args[0] ?? '')) return null;
  const script = scriptArgs(invoke.args);
  const key = script?.keys[0];
  const token = script?.argv[0];
  if (script === null || key === undefined || token === undefined) return null;
  return { key, token, ttlMs: scriptTtl(script.argv), via: 'script' };
}

/** The keys a command may release: a DEL's or UNLINK's, or a script's (whether it deletes is known only by its effect). */
export function releaseCandidates(invoke: RedisInvokeEvent): readonly string[] {
  const command = upperCommand(invoke.command);
  if (command === 'DEL' || command === 'UNLINK') return invoke.args;
  if (command === 'EVAL' || command === 'EVALSHA') return scriptArgs(invoke.args)?.keys ?? [];
  return [];
}

/** A node's answer to one acquire request: it granted (OK, 1), refused (nil, 0), failed, or may or may not have run (timeout). */
export type VoteAnswer = 'ok' | 'nil' | 'error' | 'timeout';

export function voteAnswer(done: RedisCompleteEvent): VoteAnswer {
  if (done.phase === 'ok') return done.reply === 'OK' || (typeof done.reply === 'number' && done.reply >= 1) ? 'ok' : 'nil';
  return done.phase === 'info' || TIMED_OUT.test(done.error ?? '') ? 'timeout' : 'error';
}

/** A vote the `redlock` module reported in its lock event (the commands behind it may be unnamed). */
export function reportedAnswer(vote: { ok: boolean; error?: string }): VoteAnswer {
  if (vote.ok) return 'ok';
  if (vote.error === undefined) return 'nil';
  return TIMED_OUT.test(vote.error) ? 'timeout' : 'error';
}
