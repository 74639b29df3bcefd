/**
 * The keyspace model: what each Redis node holds, rebuilt from the commands in
 * the history. It knows nothing of locks or learners. Once a command's effect
 * is applied it tells its observers what happened, with what the key held
 * before (lock-signals.ts reads lock operations off these reports, the
 * diagnosis-*.ts modules read bugs off them), so no observer re-reads a
 * command or keeps a copy of the keys.
 *
 * Approximations, on purpose (this is a diagnosis aid, not a Redis emulator):
 * - a command takes effect at its completion; expiry uses the lab clock (a
 *   node's clock jump shifts it);
 * - an `info` (indeterminate) completion marks the key uncertain;
 * - Lua scripts are classified by the commands they call: `del`/`unlink`
 *   deletes its keys (only if they hold ARGV[1] when it also calls `get`),
 *   else `set` sets them to ARGV[1], else `pexpire`/`expire` renews them; a
 *   TTL is the first numeric ARGV after ARGV[1];
 * - replication is not modelled: a replica knows only what was sent to it;
 * - long values arrive cut by the sandbox (a prefix, the full size and a hash:
 *   server/sandbox/worker/bound-event.ts), which never makes two different
 *   values equal, so comparing them as strings stays sound.
 */
import type { HistoryEvent, NodeStateEvent, RedisCompleteEvent, RedisInvokeEvent, ReplyJson } from '../history';

export interface KeyEntry {
  /** null = the key exists but we never saw its value. */
  value: string | null;
  setter: number | null;
  setSeq: number;
  setT: number;
  /** Lab time the key expires; Infinity when it has no TTL. */
  expiresAt: number;
  uncertain: boolean;
}

export interface ParsedSet {
  key: string;
  value: string;
  nx: boolean;
  xx: boolean;
  keepTtl: boolean;
  ttlMs: number | null | undefined;
}

/**
 * What the keyspace reports, in history order, each call made once the
 * command's effect is applied. Arguments are passed flat, not as one report
 * object, because this runs for every Redis command of a streaming run.
 * Entries handed over are the model's (or ones it just dropped): read them,
 * never change them.
 */
export interface KeyspaceObserver {
  /** `node` came back up empty (restarted without persistence): `lost` is what it held, from before it went down at `downAt`. */
  restarted?(node: number, lost: ReadonlyMap<string, KeyEntry>, downAt: number, up: NodeStateEvent): void;
  /**
   * A SET completed, in any phase. `replaced`: the live entry it overwrote, only when it took effect;
   * `ttlMs`: the key's TTL after it (KEEPTTL resolved); `readFreeAt`: when the same client last read
   * the key on that node as free (GET → nil) before this SET, if it had.
   */
  set?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, set: ParsedSet, replaced: KeyEntry | undefined, ttlMs: number | null | undefined, readFreeAt: number | undefined): void;
  /**
   * A script that sets `key` to `token` completed, in any phase. `mine`: the key already held that
   * token, live (the script renews rather than takes it); `took`: it completed ok with a truthy reply.
   */
  scriptSet?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, token: string, ttlMs: number | undefined, mine: boolean, took: boolean): void;
  /** `key` now holds a value `invoke.client` wrote (a SET or setting script took effect, other than a renewal of its own token). */
  wrote?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string): void;
  /** A DEL, UNLINK or deleting script completed ok, whatever it removed. */
  deleted?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, keys: readonly string[]): void;
  /**
   * A one-key delete removed `key`, which held `entry`; `offeredToken` is a deleting script's ARGV[1]
   * (null for DEL). Deletes of several keys are not reported: lock code releases one key per command,
   * and a bulk DEL is cleanup.
   */
  removed?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, entry: KeyEntry, offeredToken: string | null): void;
  /** An EXPIRE/PEXPIRE, or a script calling one, renewed `key`. `ttlMs` undefined: not a number we could read. */
  expired?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, ttlMs: number | undefined, byScript: boolean): void;
}

const CALLED = /\bcall\(\s*['"]([a-zA-Z]+)['"]/g;

export class Keyspace {
  private readonly nodes = new Map<number, Map<string, KeyEntry>>();
  private readonly pending = new Map<number, RedisInvokeEvent>();
  private readonly scripts = new Map<string, string>();
  /** `${client}|${node}|${key}` → when that client last read the key as free. */
  private readonly readFree = new Map<string, number>();
  private readonly nodeDownAt = new Map<number, number>();
  /** Scripts repeat (one release script, thousands of calls): classify each once. */
  private readonly scriptCommands = new Map<string, ReadonlySet<string>>();

  constructor(private readonly observers: readonly KeyspaceObserver[]) {}

  /** Invocations still waiting for a completion (indeterminate if the history is final). */
  pendingCount(): number {
    return this.pending.size;
  }

  observe(event: HistoryEvent): void {
    if (event.type === 'node') {
      this.observeNode(event);
      return;
    }
    if (event.type === 'nemesis' && event.op === 'node-clock-jump' && event.phase === 'ok' && event.node !== undefined) {
      const jump = event.args['jumpMs'];
      if (typeof jump === 'number') this.shiftExpiry(event.node, jump);
      return;
    }
    if (event.type !== 'redis') return;
    if (event.phase === 'invoke') {
      this.pending.set(event.opId, event);
      return;
    }
    const invoke = this.pending.get(event.opId);
    if (!invoke) return;
    this.pending.delete(event.opId);
    this.complete(invoke, event);
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
    for (const observer of this.observers) observer.restarted?.(event.node, keys, downAt, event);
    keys.clear();
  }

  private shiftExpiry(node: number, jumpMs: number): void {
    for (const entry of this.keys(node).values()) entry.expiresAt -= jumpMs;
  }

  private complete(invoke: RedisInvokeEvent, done: RedisCompleteEvent): void {
    const command = invoke.command.toUpperCase();
    const args = invoke.args;
    if (invoke.argCount !== undefined) {
      // The worker kept only the first arguments of a very long command (a DEL of hundreds of keys):
      // what it did to the keys listed cannot be told exactly, so they become uncertain, and nothing is reported.
      const keys = this.keys(invoke.node);
      for (const arg of args) {
        const entry = keys.get(arg);
        if (entry) entry.uncertain = true;
      }
      return;
    }
    switch (command) {
      case 'SET':
        this.completeSet(invoke, done);
        return;
      case 'GET':
        this.completeGet(invoke, done);
        return;
      case 'DEL':
      case 'UNLINK':
        this.completeDelete(invoke, done, args, null);
        return;
      case 'PEXPIRE':
      case 'EXPIRE':
        this.completeExpire(invoke, done, command === 'EXPIRE' ? 1000 : 1);
        return;
      case 'SCRIPT':
        if ((args[0] ?? '').toUpperCase() === 'LOAD' && typeof done.reply === 'string' && args[1] !== undefined) {
          this.scripts.set(done.reply, args[1]);
        }
        return;
      case 'EVAL':
      case 'EVALSHA': {
        const script = command === 'EVAL' ? args[0] : this.scripts.get(args[0] ?? '');
        if (script !== undefined) this.completeScript(invoke, done, script);
        return;
      }
      default:
        return;
    }
  }

  private completeSet(invoke: RedisInvokeEvent, done: RedisCompleteEvent): void {
    const set = parseSet(invoke.args);
    if (!set) return;
    const { client, node } = invoke;
    const keys = this.keys(node);
    let readFreeAt: number | undefined;
    if (this.readFree.size > 0) {
      // A read-as-free counts for the next SET only: the size test spares building the key for code that never GETs.
      const freeKey = `${client}|${node}|${set.key}`;
      readFreeAt = this.readFree.get(freeKey);
      if (readFreeAt !== undefined) this.readFree.delete(freeKey);
    }
    if (done.phase !== 'ok' || done.reply === null) {
      if (done.phase === 'info') {
        const entry = keys.get(set.key);
        if (entry) entry.uncertain = true;
        else keys.set(set.key, newEntry(set.value, client, done, set.ttlMs, true));
      } else if (done.phase === 'ok' && set.xx) {
        // XX refused: the key did not exist. (NX refused: it existed, as it was.)
        keys.delete(set.key);
      }
      for (const observer of this.observers) observer.set?.(invoke, done, set, undefined, set.ttlMs, readFreeAt);
      return;
    }

    const previous = keys.get(set.key);
    const live = previous && previous.expiresAt > done.t ? previous : undefined;
    const ttlMs = set.keepTtl && previous ? (previous.expiresAt === Infinity ? null : previous.expiresAt - done.t) : set.ttlMs;
    keys.set(set.key, newEntry(set.value, client, done, ttlMs, false));
    for (const observer of this.observers) observer.set?.(invoke, done, set, live, ttlMs, readFreeAt);
    for (const observer of this.observers) observer.wrote?.(invoke, done, set.key);
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
  private completeDelete(invoke: RedisInvokeEvent, done: RedisCompleteEvent, keysDeleted: readonly string[], offeredToken: string | null, tokenChecked = false): void {
    const keys = this.keys(invoke.node);
    if (done.phase === 'info') {
      // It may or may not have run: the key's value is in doubt.
      for (const key of keysDeleted) {
        const entry = keys.get(key);
        if (entry) entry.uncertain = true;
      }
      return;
    }
    // A delete that failed (a reply error, never sent) deleted nothing.
    if (done.phase !== 'ok') return;
    const gone = applyDelete(keys, keysDeleted, replyCount(done.reply), offeredToken, tokenChecked);
    for (const observer of this.observers) observer.deleted?.(invoke, done, keysDeleted);
    if (gone) for (const observer of this.observers) observer.removed?.(invoke, done, keysDeleted[0] as string, gone, offeredToken);
  }

  private completeExpire(invoke: RedisInvokeEvent, done: RedisCompleteEvent, unitMs: number): void {
    const [key, amount] = invoke.args;
    if (key === undefined || done.phase !== 'ok' || replyCount(done.reply) !== 1) return;
    const ms = Number(amount) * unitMs;
    const entry = this.keys(invoke.node).get(key);
    if (entry && Number.isFinite(ms)) entry.expiresAt = done.t + ms;
    for (const observer of this.observers) observer.expired?.(invoke, done, key, Number.isFinite(ms) ? ms : undefined, false);
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

  private completeScript(invoke: RedisInvokeEvent, done: RedisCompleteEvent, script: string): void {
    const numKeys = Number(invoke.args[1]);
    if (!Number.isInteger(numKeys) || numKeys < 0) return;
    const keys = invoke.args.slice(2, 2 + numKeys);
    const argv = invoke.args.slice(2 + numKeys);
    const called = this.commandsOf(script);
    const token = argv[0] ?? null;

    if (called.has('del') || called.has('unlink')) {
      this.completeDelete(invoke, done, keys, token, called.has('get') && token !== null);
      return;
    }
    const ttlArg = argv.find((a, i) => i > 0 && Number.isFinite(Number(a)) && a.trim() !== '');
    const ttlMs = ttlArg === undefined ? undefined : Number(ttlArg);
    const model = this.keys(invoke.node);
    if (called.has('set') && token !== null) {
      const took = done.phase === 'ok' && truthy(done.reply);
      for (const key of keys) {
        const previous = model.get(key);
        const mine = previous !== undefined && previous.value === token && previous.expiresAt > done.t;
        if (done.phase === 'info') {
          if (previous) previous.uncertain = true;
        } else if (took && mine) {
          previous.expiresAt = ttlMs === undefined ? previous.expiresAt : done.t + ttlMs;
        } else if (took) {
          model.set(key, newEntry(token, invoke.client, done, ttlMs, false));
        }
        for (const observer of this.observers) observer.scriptSet?.(invoke, done, key, token, ttlMs, mine, took);
        if (took && !mine) for (const observer of this.observers) observer.wrote?.(invoke, done, key);
      }
      return;
    }
    if ((called.has('pexpire') || called.has('expire')) && done.phase === 'ok' && truthy(done.reply)) {
      const ms = ttlMs === undefined ? undefined : called.has('pexpire') ? ttlMs : ttlMs * 1000;
      for (const key of keys) {
        const entry = model.get(key);
        if (entry && ms !== undefined) entry.expiresAt = done.t + ms;
        for (const observer of this.observers) observer.expired?.(invoke, done, key, ms, true);
      }
    }
  }
}

function newEntry(value: string, client: number, done: RedisCompleteEvent, ttlMs: number | null | undefined, uncertain: boolean): KeyEntry {
  return {
    value,
    setter: client,
    setSeq: done.seq,
    setT: done.t,
    // An unknown TTL (PXAT, EXAT) is modelled as none: we never expire what we cannot date.
    expiresAt: typeof ttlMs === 'number' ? done.t + ttlMs : Infinity,
    uncertain,
  };
}

/** Applies a completed delete that removed `removed` keys; returns what a one-key delete removed, if the key was known. */
function applyDelete(keys: Map<string, KeyEntry>, keysDeleted: readonly string[], removed: number, offeredToken: string | null, tokenChecked: boolean): KeyEntry | undefined {
  if (keysDeleted.length === 1) {
    const key = keysDeleted[0] as string;
    const entry = keys.get(key);
    if (removed === 1) {
      // A checked release that deleted a key the model thinks holds another token: the other SET's
      // completion was recorded first but ran after this delete. The model's entry is the newer one.
      if (tokenChecked && entry && entry.value !== offeredToken) return undefined;
      keys.delete(key);
      return entry;
    }
    // A plain DEL that removed nothing: the key was already gone.
    if (!tokenChecked) keys.delete(key);
    // A checked release that removed nothing left the key (someone else's, or none) as it was.
    return undefined;
  }
  // Several keys: exact only when all or none were removed.
  if (removed === keysDeleted.length || (removed === 0 && !tokenChecked)) for (const key of keysDeleted) keys.delete(key);
  else if (removed > 0)
    for (const key of keysDeleted) {
      const entry = keys.get(key);
      if (entry) entry.uncertain = true;
    }
  return undefined;
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
