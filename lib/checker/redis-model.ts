/**
 * A model of each node's keys, rebuilt from the Redis commands in the history,
 * so the checker can say what a key held when a client deleted it. It also
 * turns raw lock commands (SET NX, DEL, PEXPIRE, release / extend scripts)
 * into lock signals for code that does not use the `redlock` module.
 *
 * Approximations, on purpose (this is a diagnosis aid, not a Redis emulator):
 * - a command takes effect at its completion; expiry uses the lab clock;
 * - an `info` (indeterminate) completion marks the key uncertain, and no
 *   diagnosis is drawn from an uncertain key until a definite write;
 * - Lua scripts are classified by the commands they call (`del` → release,
 *   `set` → acquire or extend, `pexpire` → extend);
 * - replication is not modelled: a replica knows only what was sent to it;
 * - long values arrive cut by the sandbox (a prefix, the full size and a hash:
 *   server/sandbox/worker/bound-event.ts), which never makes two different
 *   values equal, so comparing them as strings stays sound.
 */
import type { HistoryEvent, NodeStateEvent, RedisCompleteEvent, RedisInvokeEvent, ReplyJson } from '../history';
import type { DiagnosisLog } from './diagnoses';
import { clientLabel, formatDuration, nodeLabel, quote } from './format';

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
  | { kind: 'release'; client: number; node: number; key: string; t: number; seq: number };

interface KeyEntry {
  /** null = the key exists but we never saw its value. */
  value: string | null;
  setter: number | null;
  setSeq: number;
  setT: number;
  /** Lab time the key expires; Infinity when it has no TTL. */
  expiresAt: number;
  uncertain: boolean;
}

interface WipedEntry {
  entry: KeyEntry;
  seq: number;
  t: number;
}

interface ParsedSet {
  key: string;
  value: string;
  nx: boolean;
  xx: boolean;
  keepTtl: boolean;
  ttlMs: number | null | undefined;
}

/** Most events imply no lock signal: share one empty answer rather than allocate one per event. */
const NONE: readonly RawLockSignal[] = Object.freeze([]);

const CALLED = /\bcall\(\s*['"]([a-zA-Z]+)['"]/g;

export class RedisModel {
  private readonly nodes = new Map<number, Map<string, KeyEntry>>();
  private readonly pending = new Map<number, RedisInvokeEvent>();
  private readonly scripts = new Map<string, string>();
  private readonly lockKeys = new Set<string>();
  /** `${client}|${node}|${key}` → when that client last read the key as free. */
  private readonly readFree = new Map<string, number>();
  private readonly wiped = new Map<number, Map<string, WipedEntry>>();
  private readonly nodeDownAt = new Map<number, number>();
  /** Scripts repeat (one release script, thousands of calls): classify each once. */
  private readonly scriptCommands = new Map<string, ReadonlySet<string>>();

  constructor(
    private readonly diagnoses: DiagnosisLog,
    extraLockKeys: readonly string[],
  ) {
    for (const key of extraLockKeys) this.lockKeys.add(key);
  }

  addLockKey(key: string): void {
    this.lockKeys.add(key);
  }

  isLockKey(key: string): boolean {
    return this.lockKeys.has(key);
  }

  /** Invocations still waiting for a completion (indeterminate if the history is final). */
  pendingCount(): number {
    return this.pending.size;
  }

  /** Feeds one event; returns the lock signals it implies (usually none). */
  observe(event: HistoryEvent): readonly RawLockSignal[] {
    if (event.type === 'node') {
      this.observeNode(event);
      return NONE;
    }
    if (event.type === 'nemesis' && event.op === 'node-clock-jump' && event.phase === 'ok' && event.node !== undefined) {
      const jump = event.args['jumpMs'];
      if (typeof jump === 'number') this.shiftExpiry(event.node, jump);
      return NONE;
    }
    if (event.type !== 'redis') return NONE;
    if (event.phase === 'invoke') {
      this.pending.set(event.opId, event);
      return NONE;
    }
    const invoke = this.pending.get(event.opId);
    if (!invoke) return NONE;
    this.pending.delete(event.opId);
    return this.complete(invoke, event);
  }

  private keys(node: number): Map<string, KeyEntry> {
    let keys = this.nodes.get(node);
    if (!keys) {
      keys = new Map();
      this.nodes.set(node, keys);
    }
    return keys;
  }

  private observeNode(event: NodeStateEvent): void {
    if (event.state === 'down') {
      if (!this.nodeDownAt.has(event.node)) this.nodeDownAt.set(event.node, event.t);
      return;
    }
    if (event.state !== 'up') return;
    const downAt = this.nodeDownAt.get(event.node);
    this.nodeDownAt.delete(event.node);
    if (downAt === undefined || event.persistence !== 'none') return;
    // Restarted from nothing: every key it held is gone, live or not.
    const keys = this.keys(event.node);
    const wiped = new Map<string, WipedEntry>();
    for (const [key, entry] of keys) {
      if (entry.expiresAt > downAt && this.lockKeys.has(key)) wiped.set(key, { entry, seq: event.seq, t: event.t });
    }
    keys.clear();
    this.wiped.set(event.node, wiped);
  }

  private shiftExpiry(node: number, jumpMs: number): void {
    for (const entry of this.keys(node).values()) entry.expiresAt -= jumpMs;
  }

  private complete(invoke: RedisInvokeEvent, done: RedisCompleteEvent): readonly RawLockSignal[] {
    const command = invoke.command.toUpperCase();
    const args = invoke.args;
    if (invoke.argCount !== undefined) {
      // The worker kept only the first arguments of a very long command (a DEL of hundreds of keys):
      // what it did to the keys listed cannot be told exactly, so they become uncertain, and no lock signal is drawn.
      const keys = this.keys(invoke.node);
      for (const arg of args) {
        const entry = keys.get(arg);
        if (entry) entry.uncertain = true;
      }
      return NONE;
    }
    switch (command) {
      case 'SET':
        return this.completeSet(invoke, done);
      case 'GET':
        this.completeGet(invoke, done);
        return NONE;
      case 'DEL':
      case 'UNLINK':
        return this.completeDelete(invoke, done, args, null);
      case 'PEXPIRE':
      case 'EXPIRE':
        return this.completeExpire(invoke, done, command === 'EXPIRE' ? 1000 : 1);
      case 'SCRIPT':
        if ((args[0] ?? '').toUpperCase() === 'LOAD' && typeof done.reply === 'string' && args[1] !== undefined) {
          this.scripts.set(done.reply, args[1]);
        }
        return NONE;
      case 'EVAL':
      case 'EVALSHA': {
        const script = command === 'EVAL' ? args[0] : this.scripts.get(args[0] ?? '');
        return script === undefined ? NONE : this.completeScript(invoke, done, script);
      }
      default:
        return NONE;
    }
  }

  private completeSet(invoke: RedisInvokeEvent, done: RedisCompleteEvent): readonly RawLockSignal[] {
    const set = parseSet(invoke.args);
    if (!set) return NONE;
    const { client, node } = invoke;
    const keys = this.keys(node);
    const base = { client, node, key: set.key, token: set.value, ttlMs: set.ttlMs, invokeT: invoke.t, t: done.t, seq: done.seq };
    let readFreeAt: number | undefined;
    if (this.readFree.size > 0) {
      const freeKey = `${client}|${node}|${set.key}`;
      readFreeAt = this.readFree.get(freeKey);
      if (readFreeAt !== undefined) this.readFree.delete(freeKey);
    }
    if (set.nx) this.lockKeys.add(set.key);
    const isLockSet = set.nx || readFreeAt !== undefined || this.lockKeys.has(set.key);

    if (done.phase === 'info') {
      const entry = keys.get(set.key);
      if (entry) entry.uncertain = true;
      else keys.set(set.key, this.entry(set, client, done, set.ttlMs, true));
      return isLockSet && !set.xx ? [{ kind: 'acquire', outcome: 'unknown', ...base }] : NONE;
    }
    if (done.phase === 'fail') return isLockSet && set.nx ? [{ kind: 'acquire', outcome: 'fail', ...base }] : NONE;
    if (done.reply === null) {
      // NX refused (the key existed) or XX refused (it did not).
      if (set.xx) keys.delete(set.key);
      return set.nx ? [{ kind: 'acquire', outcome: 'fail', ...base }] : NONE;
    }

    const previous = keys.get(set.key);
    const live = previous && previous.expiresAt > done.t ? previous : undefined;
    if (live && readFreeAt !== undefined && !set.nx && live.setter !== null && live.setter !== client && live.setT > readFreeAt && !live.uncertain) {
      this.diagnoses.add({
        kind: 'check-then-set-race',
        check: 'mutual-exclusion',
        subject: `${client}|${set.key}`,
        message:
          `${clientLabel(client)} read ${quote(set.key)} on ${nodeLabel(node)} as free, then SET it without NX ` +
          `after ${clientLabel(live.setter)} had taken it: checking then setting is not atomic; use SET … NX.`,
        seqs: [live.setSeq, invoke.seq, done.seq],
        window: { from: readFreeAt, to: done.t },
        clients: [client, live.setter],
      });
    }
    const ttlMs = set.keepTtl && previous ? (previous.expiresAt === Infinity ? null : previous.expiresAt - done.t) : set.ttlMs;
    keys.set(set.key, this.entry(set, client, done, ttlMs, false));
    this.checkRestartedGrant(node, set.key, client, done);
    if (set.xx && live?.value === set.value) return [{ kind: 'extend', client, node, key: set.key, ttlMs: ttlMs ?? undefined, t: done.t, seq: done.seq }];
    return isLockSet && !set.xx ? [{ kind: 'acquire', outcome: 'ok', ...base }] : NONE;
  }

  private entry(set: ParsedSet, client: number, done: RedisCompleteEvent, ttlMs: number | null | undefined, uncertain: boolean): KeyEntry {
    return {
      value: set.value,
      setter: client,
      setSeq: done.seq,
      setT: done.t,
      // An unknown TTL (PXAT, EXAT) is modelled as none: we never expire what we cannot date.
      expiresAt: typeof ttlMs === 'number' ? done.t + ttlMs : Infinity,
      uncertain,
    };
  }

  /** A node that forgot a live lock in a restart hands it to someone else: name it. */
  private checkRestartedGrant(node: number, key: string, client: number, done: RedisCompleteEvent): void {
    const wiped = this.wiped.get(node)?.get(key);
    if (!wiped) return;
    this.wiped.get(node)?.delete(key);
    const { entry } = wiped;
    if (entry.setter === null || entry.setter === client || entry.expiresAt <= done.t) return;
    this.diagnoses.add({
      kind: 'restart-without-persistence',
      check: 'mutual-exclusion',
      subject: `${node}|${key}`,
      message:
        `${nodeLabel(node)} restarted without persistence while ${clientLabel(entry.setter)}'s lock ${quote(key)} on it ` +
        `had ${formatDuration(entry.expiresAt - wiped.t)} left, then granted it to ${clientLabel(client)}: ` +
        `keep a restarted node down for longer than the TTL (delayed restart) or persist with AOF.`,
      seqs: [entry.setSeq, wiped.seq, done.seq],
      window: { from: wiped.t, to: done.t },
      clients: [entry.setter, client],
    });
  }

  private completeGet(invoke: RedisInvokeEvent, done: RedisCompleteEvent): void {
    const key = invoke.args[0];
    if (key === undefined || done.phase !== 'ok') return;
    const keys = this.keys(invoke.node);
    if (done.reply === null) {
      keys.delete(key);
      this.readFree.set(`${invoke.client}|${invoke.node}|${key}`, done.t);
    } else if (typeof done.reply === 'string') {
      const entry = keys.get(key);
      if (entry && entry.value !== done.reply) {
        entry.value = done.reply;
        entry.setter = null;
      }
    }
  }

  /**
   * A DEL, or a script that deletes. `offeredToken` is the script's token
   * argument; `tokenChecked` says the script compares the key's value with it
   * first (it calls GET), so whatever it deleted held that token.
   */
  private completeDelete(
    invoke: RedisInvokeEvent,
    done: RedisCompleteEvent,
    keysDeleted: readonly string[],
    offeredToken: string | null,
    tokenChecked = false,
  ): readonly RawLockSignal[] {
    const { client, node } = invoke;
    const keys = this.keys(node);
    if (done.phase === 'info') {
      // It may or may not have run: the hold stands until its key expires, the key's value is in doubt.
      for (const key of keysDeleted) {
        const entry = keys.get(key);
        if (entry) entry.uncertain = true;
      }
      return NONE;
    }
    // A release that failed (a reply error, never sent) deleted nothing: the hold stands too.
    if (done.phase !== 'ok') return NONE;
    const signals: RawLockSignal[] = [];
    for (const key of keysDeleted) {
      if (this.lockKeys.has(key)) signals.push({ kind: 'release', client, node, key, t: done.t, seq: done.seq });
    }
    const removed = replyCount(done.reply);
    if (keysDeleted.length === 1) {
      const key = keysDeleted[0] as string;
      const entry = keys.get(key);
      if (removed === 1) {
        // A checked release that deleted a key the model thinks holds another token: the other SET's
        // completion was recorded first but ran after this delete. The model's entry is the newer one.
        if (tokenChecked && entry && entry.value !== offeredToken) return signals;
        if (entry && this.lockKeys.has(key) && !tokenChecked) this.checkForeignDelete(invoke, done, key, entry, offeredToken);
        keys.delete(key);
      } else if (!tokenChecked) {
        // A plain DEL that removed nothing: the key was already gone.
        keys.delete(key);
      }
      // A checked release that removed nothing left the key (someone else's, or none) as it was.
      return signals;
    }
    // Several keys: exact only when all or none were removed.
    if (removed === keysDeleted.length || (removed === 0 && !tokenChecked)) for (const key of keysDeleted) keys.delete(key);
    else if (removed > 0)
      for (const key of keysDeleted) {
        const entry = keys.get(key);
        if (entry) entry.uncertain = true;
      }
    return signals;
  }

  private checkForeignDelete(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, entry: KeyEntry, offeredToken: string | null): void {
    const { client, node } = invoke;
    if (entry.uncertain || entry.setter === null || entry.setter === client) return;
    if (offeredToken !== null && entry.value === offeredToken) return;
    const how = invoke.command.toUpperCase() === 'DEL' || invoke.command.toUpperCase() === 'UNLINK' ? 'a plain DEL' : 'a release script';
    this.diagnoses.add({
      kind: 'release-deleted-foreign-lock',
      check: 'mutual-exclusion',
      subject: `${client}|${key}`,
      message:
        `${clientLabel(client)}'s release (${how}) deleted ${quote(key)} on ${nodeLabel(node)} while it held ` +
        `${clientLabel(entry.setter)}'s token: its own lock had expired; release only if the value is still your token (a Lua check-and-delete).`,
      seqs: [entry.setSeq, invoke.seq, done.seq],
      window: { from: entry.setT, to: done.t },
      clients: [client, entry.setter],
    });
  }

  private completeExpire(invoke: RedisInvokeEvent, done: RedisCompleteEvent, unitMs: number): readonly RawLockSignal[] {
    const [key, amount] = invoke.args;
    if (key === undefined || done.phase !== 'ok' || replyCount(done.reply) !== 1) return NONE;
    const ms = Number(amount) * unitMs;
    const entry = this.keys(invoke.node).get(key);
    if (entry && Number.isFinite(ms)) entry.expiresAt = done.t + ms;
    if (!this.lockKeys.has(key)) return NONE;
    return [{ kind: 'extend', client: invoke.client, node: invoke.node, key, ttlMs: Number.isFinite(ms) ? ms : undefined, t: done.t, seq: done.seq }];
  }

  private commandsOf(script: string): ReadonlySet<string> {
    let called = this.scriptCommands.get(script);
    if (!called) {
      const found = new Set<string>();
      for (const match of script.matchAll(CALLED)) found.add((match[1] ?? '').toLowerCase());
      called = found;
      if (this.scriptCommands.size < 256) this.scriptCommands.set(script, called);
    }
    return called;
  }

  private completeScript(invoke: RedisInvokeEvent, done: RedisCompleteEvent, script: string): readonly RawLockSignal[] {
    const numKeys = Number(invoke.args[1]);
    if (!Number.isInteger(numKeys) || numKeys < 0) return NONE;
    const keys = invoke.args.slice(2, 2 + numKeys);
    const argv = invoke.args.slice(2 + numKeys);
    const called = this.commandsOf(script);
    const { client, node } = invoke;
    const token = argv[0] ?? null;

    if (called.has('del') || called.has('unlink')) {
      return this.completeDelete(invoke, done, keys, token, called.has('get') && token !== null);
    }
    const ttlArg = argv.find((a, i) => i > 0 && Number.isFinite(Number(a)) && a.trim() !== '');
    const ttlMs = ttlArg === undefined ? undefined : Number(ttlArg);
    const model = this.keys(node);
    if (called.has('set') && token !== null) {
      const signals: RawLockSignal[] = [];
      for (const key of keys) {
        const previous = model.get(key);
        const mine = previous !== undefined && previous.value === token && previous.expiresAt > done.t;
        if (done.phase === 'info') {
          if (previous) previous.uncertain = true;
          if (!mine) {
            this.lockKeys.add(key);
            signals.push({ kind: 'acquire', outcome: 'unknown', client, node, key, token, ttlMs, invokeT: invoke.t, t: done.t, seq: done.seq });
          }
          continue;
        }
        if (done.phase !== 'ok') continue;
        if (mine) {
          if (truthy(done.reply)) {
            previous.expiresAt = ttlMs === undefined ? previous.expiresAt : done.t + ttlMs;
            signals.push({ kind: 'extend', client, node, key, ttlMs, t: done.t, seq: done.seq });
          }
          continue;
        }
        this.lockKeys.add(key);
        if (truthy(done.reply)) {
          model.set(key, { value: token, setter: client, setSeq: done.seq, setT: done.t, expiresAt: ttlMs === undefined ? Infinity : done.t + ttlMs, uncertain: false });
          this.checkRestartedGrant(node, key, client, done);
          signals.push({ kind: 'acquire', outcome: 'ok', client, node, key, token, ttlMs, invokeT: invoke.t, t: done.t, seq: done.seq });
        } else {
          signals.push({ kind: 'acquire', outcome: 'fail', client, node, key, token, ttlMs, invokeT: invoke.t, t: done.t, seq: done.seq });
        }
      }
      return signals;
    }
    if ((called.has('pexpire') || called.has('expire')) && done.phase === 'ok' && truthy(done.reply)) {
      const ms = ttlMs === undefined ? undefined : called.has('pexpire') ? ttlMs : ttlMs * 1000;
      return keys.map((key) => {
        const entry = model.get(key);
        if (entry && ms !== undefined) entry.expiresAt = done.t + ms;
        return { kind: 'extend' as const, client, node, key, ttlMs: ms, t: done.t, seq: done.seq };
      });
    }
    return NONE;
  }
}

function parseSet(args: readonly string[]): ParsedSet | null {
  const key = args[0];
  const value = args[1];
  if (key === undefined || value === undefined) return null;
  const set: ParsedSet = { key, value, nx: false, xx: false, keepTtl: false, ttlMs: null };
  for (let i = 2; i < args.length; i++) {
    const option = (args[i] ?? '').toUpperCase();
    const next = Number(args[i + 1]);
    if (option === 'NX') set.nx = true;
    else if (option === 'XX') set.xx = true;
    else if (option === 'KEEPTTL') set.keepTtl = true;
    else if (option === 'PX') {
      set.ttlMs = Number.isFinite(next) ? next : undefined;
      i++;
    } else if (option === 'EX') {
      set.ttlMs = Number.isFinite(next) ? next * 1000 : undefined;
      i++;
    } else if (option === 'PXAT' || option === 'EXAT') {
      // Absolute wall-clock expiry: not comparable with the lab clock.
      set.ttlMs = undefined;
      i++;
    }
  }
  return set;
}

function replyCount(reply: ReplyJson | undefined): number {
  if (typeof reply === 'number') return reply;
  if (typeof reply === 'string' && /^\d+$/.test(reply)) return Number(reply);
  return Number.NaN;
}

function truthy(reply: ReplyJson | undefined): boolean {
  if (reply === 'OK' || reply === true) return true;
  const n = replyCount(reply);
  return Number.isFinite(n) && n > 0;
}
