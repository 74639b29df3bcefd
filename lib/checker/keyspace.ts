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
 *   node's clock jump shifts it); an absolute expiry (PXAT, EXAT, PEXPIREAT,
 *   EXPIREAT) is on the node's wall clock, which the history does not record,
 *   so such a key has a TTL we cannot date and is modelled as never expiring;
 * - the SET family (SET with NX/XX/EX/PX/KEEPTTL/GET, SETNX, SETEX, PSETEX,
 *   GETSET) is one report, `set`, with whether it took effect; GETDEL is a
 *   delete that says what it removed; PERSIST removes a TTL;
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
import type { NodeRole } from '../cluster';
import type { HistoryEvent, NemesisEvent, NodeStateEvent, RedisCompleteEvent, RedisInvokeEvent } from '../history';
import { clockJumpOf } from '../faults/catalogue';
import { commandsCalled, parseSetFamily, replyCount, scriptArgs, scriptTtl, setTookEffect, truthy, type ParsedSet } from '../lock-ops/commands';

export type { ParsedSet } from '../lock-ops/commands';

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
   * A replica was promoted to master while its master was down: `lost` is what the dead master held, live,
   * that the promoted node never received (replication is asynchronous; the model knows only what was sent to each node).
   */
  promoted?(node: number, from: number, lost: ReadonlyMap<string, KeyEntry>, event: NodeStateEvent): void;
  /** `node`'s clock jumped forward: `expired` is what was live on it and expired at the jump, each with its expiry from before the jump. */
  clockJumped?(node: number, expired: ReadonlyMap<string, KeyEntry>, event: NemesisEvent): void;
  /**
   * A SET (or SETNX, SETEX, PSETEX, GETSET) completed, in any phase. `took`: it completed ok and took
   * effect (the reply shapes differ: OK/nil, 1/0, the old value for GET); `replaced`: the live entry it
   * overwrote, only when it took effect; `ttlMs`: the key's TTL after it (KEEPTTL resolved); `readFreeAt`:
   * when the same client last read the key on that node as free (GET → nil) before this SET, if it had.
   */
  set?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, set: ParsedSet, took: boolean, replaced: KeyEntry | undefined, ttlMs: number | null | undefined, readFreeAt: number | undefined): void;
  /**
   * A script that sets `key` to `token` completed, in any phase. `mine`: the key already held that
   * token, live (the script renews rather than takes it); `took`: it completed ok with a truthy reply.
   */
  scriptSet?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, token: string, ttlMs: number | undefined, mine: boolean, took: boolean): void;
  /** `key` now holds a value `invoke.client` wrote (a SET or setting script took effect, other than a renewal of its own token). */
  wrote?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string): void;
  /** A DEL, UNLINK, GETDEL or deleting script completed ok, whatever it removed. */
  deleted?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, keys: readonly string[]): void;
  /**
   * A one-key delete removed `key`, which held `entry`; `offeredToken` is a deleting script's ARGV[1]
   * (null for DEL and GETDEL, which offer none). Deletes of several keys are not reported: lock code
   * releases one key per command, and a bulk DEL is cleanup.
   */
  removed?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, entry: KeyEntry, offeredToken: string | null): void;
  /**
   * An EXPIRE/PEXPIRE/EXPIREAT/PEXPIREAT, or a script calling one, gave `key` a TTL (Redis said 1).
   * `ttlMs` undefined: not a number we could read, or an absolute time we cannot date.
   */
  expired?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, ttlMs: number | undefined, byScript: boolean): void;
  /** A renewal (a script calling PEXPIRE/EXPIRE, or a bare one) did not renew `key`: it failed, timed out, or answered 0. */
  renewalFailed?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string): void;
  /** A PERSIST removed `key`'s TTL (Redis said 1): it now never expires. `entry`: the model's entry, if it knew the key. */
  persisted?(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string, entry: KeyEntry | undefined): void;
}

const NO_ENTRIES: ReadonlyMap<string, KeyEntry> = new Map();

export class Keyspace {
  private readonly nodes = new Map<number, Map<string, KeyEntry>>();
  private readonly pending = new Map<number, RedisInvokeEvent>();
  private readonly scripts = new Map<string, string>();
  /** Per `client|node`, its last EVALSHA that got NOSCRIPT: the EVAL it sends next names that SHA's script. */
  private readonly noScript = new Map<string, { sha: string; tail: string }>();
  /** `${client}|${node}|${key}` → when that client last read the key as free. */
  private readonly readFree = new Map<string, number>();
  private readonly nodeDownAt = new Map<number, number>();
  private readonly roles = new Map<number, NodeRole>();
  /** Scripts repeat (one release script, thousands of calls): classify each once. */
  private readonly scriptCommands = new Map<string, ReadonlySet<string>>();

  constructor(private readonly observers: readonly KeyspaceObserver[]) {}

  /** What the model holds on `node` (live or expired: compare `expiresAt`); the model's entries, to read only. */
  entriesOf(node: number): ReadonlyMap<string, KeyEntry> {
    return this.nodes.get(node) ?? NO_ENTRIES;
  }

  /** Invocations still waiting for a completion (indeterminate if the history is final). */
  pendingCount(): number {
    return this.pending.size;
  }

  observe(event: HistoryEvent): void {
    if (event.type === 'node') {
      this.observeNode(event);
      return;
    }
    if (event.type === 'nemesis' && event.phase === 'ok' && event.node !== undefined && clockJumpOf(event.op, event.args) !== 0) {
      this.shiftExpiry(event.node, clockJumpOf(event.op, event.args), event);
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
    const wasRole = this.roles.get(event.node);
    this.roles.set(event.node, event.role);
    // A promotion by its words' key; a run file from before words, by its English reason.
    const saysPromoted = event.reasonWords ? event.reasonWords.key === 'history.node.promoted' : /promoted/i.test(event.reason);
    if (event.role === 'master' && event.state === 'up' && (wasRole === 'replica' || saysPromoted)) this.promote(event);
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

  private shiftExpiry(node: number, jumpMs: number, event: NemesisEvent): void {
    const expired = new Map<string, KeyEntry>();
    for (const [key, entry] of this.keys(node)) {
      if (entry.expiresAt > event.t && entry.expiresAt - jumpMs <= event.t) expired.set(key, { ...entry });
      entry.expiresAt -= jumpMs;
    }
    if (expired.size > 0) for (const observer of this.observers) observer.clockJumped?.(node, expired, event);
  }

  /** Per down master: what it held, live, and the promoted node does not have. */
  private promote(event: NodeStateEvent): void {
    const mine = this.keys(event.node);
    for (const down of this.nodeDownAt.keys()) {
      if (down === event.node || this.roles.get(down) === 'replica') continue;
      const lost = new Map<string, KeyEntry>();
      for (const [key, entry] of this.keys(down)) {
        if (entry.expiresAt > event.t && mine.get(key)?.value !== entry.value) lost.set(key, entry);
      }
      if (lost.size > 0) for (const observer of this.observers) observer.promoted?.(event.node, down, lost, event);
    }
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
      case 'SETNX':
      case 'SETEX':
      case 'PSETEX':
      case 'GETSET': {
        const set = parseSetFamily(command, args);
        if (set) this.completeSet(invoke, done, set);
        return;
      }
      case 'GET':
        this.completeGet(invoke, done);
        return;
      case 'DEL':
      case 'UNLINK':
        this.completeDelete(invoke, done, args, null);
        return;
      case 'GETDEL':
        this.completeGetDel(invoke, done);
        return;
      case 'PEXPIRE':
      case 'EXPIRE':
        this.completeExpire(invoke, done, command === 'EXPIRE' ? 1000 : 1);
        return;
      case 'PEXPIREAT':
      case 'EXPIREAT':
        this.completeExpire(invoke, done, null);
        return;
      case 'PERSIST':
        this.completePersist(invoke, done);
        return;
      case 'SCRIPT':
        if ((args[0] ?? '').toUpperCase() === 'LOAD' && typeof done.reply === 'string' && args[1] !== undefined) {
          this.scripts.set(done.reply, args[1]);
        }
        return;
      case 'EVAL':
      case 'EVALSHA': {
        if (command === 'EVALSHA' && done.phase === 'fail' && /NOSCRIPT/.test(done.error ?? '')) this.rememberNoScript(invoke);
        if (command === 'EVAL') this.learnScript(invoke);
        const script = command === 'EVAL' ? args[0] : this.scripts.get(args[0] ?? '');
        if (script !== undefined) this.completeScript(invoke, done, script);
        return;
      }
      default:
        return;
    }
  }

  /**
   * Clients (ioredis, redlock) send EVALSHA first and, on NOSCRIPT, the same call as EVAL. The history has no
   * SHA1 of an EVAL's script, so the pair tells it: the EVAL that follows a NOSCRIPT with the same arguments
   * is that SHA's script, and later EVALSHAs of it (on nodes that cached it) are read as the script.
   */
  private rememberNoScript(invoke: RedisInvokeEvent): void {
    this.noScript.set(`${invoke.client}|${invoke.node}`, { sha: invoke.args[0] ?? '', tail: invoke.args.slice(1).join('\u0000') });
  }

  private learnScript(invoke: RedisInvokeEvent): void {
    if (this.noScript.size === 0) return;
    const at = `${invoke.client}|${invoke.node}`;
    const missed = this.noScript.get(at);
    if (!missed) return;
    this.noScript.delete(at);
    const script = invoke.args[0];
    if (script !== undefined && missed.sha !== '' && missed.tail === invoke.args.slice(1).join('\u0000')) this.scripts.set(missed.sha, script);
  }

  private completeSet(invoke: RedisInvokeEvent, done: RedisCompleteEvent, set: ParsedSet): void {
    const { client, node } = invoke;
    const keys = this.keys(node);
    let readFreeAt: number | undefined;
    if (this.readFree.size > 0) {
      // A read-as-free counts for the next SET only: the size test spares building the key for code that never GETs.
      const freeKey = `${client}|${node}|${set.key}`;
      readFreeAt = this.readFree.get(freeKey);
      if (readFreeAt !== undefined) this.readFree.delete(freeKey);
    }
    const took = done.phase === 'ok' && setTookEffect(set, done.reply);
    if (!took) {
      if (done.phase === 'info') {
        const entry = keys.get(set.key);
        if (entry) entry.uncertain = true;
        else keys.set(set.key, newEntry(set.value, client, done, set.ttlMs, true));
      } else if (done.phase === 'ok' && set.xx) {
        // XX refused: the key did not exist. (NX refused: it existed, as it was.)
        keys.delete(set.key);
      }
      for (const observer of this.observers) observer.set?.(invoke, done, set, false, undefined, set.ttlMs, readFreeAt);
      return;
    }

    const previous = keys.get(set.key);
    const live = previous && previous.expiresAt > done.t ? previous : undefined;
    // KEEPTTL keeps the TTL of a key that exists: an expired one is gone, so the new key has none.
    const ttlMs = set.keepTtl && live ? (live.expiresAt === Infinity ? null : live.expiresAt - done.t) : set.ttlMs;
    keys.set(set.key, newEntry(set.value, client, done, ttlMs, false));
    for (const observer of this.observers) observer.set?.(invoke, done, set, true, live, ttlMs, readFreeAt);
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
   * A DEL, a GETDEL, or a script that deletes. `offeredToken` is the script's
   * token argument (the client's own); `heldValue` is what a deleted key is
   * known to have held: the token of a script that compares the key's value
   * with it first (it calls GET), or GETDEL's reply. `removed`: how many keys
   * it removed, from the reply unless the reply is something else (GETDEL's).
   */
  private completeDelete(
    invoke: RedisInvokeEvent,
    done: RedisCompleteEvent,
    keysDeleted: readonly string[],
    offeredToken: string | null,
    heldValue: string | null = null,
    removed: number = replyCount(done.reply),
  ): void {
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
    const gone = applyDelete(keys, keysDeleted, removed, heldValue);
    for (const observer of this.observers) observer.deleted?.(invoke, done, keysDeleted);
    if (gone) for (const observer of this.observers) observer.removed?.(invoke, done, keysDeleted[0] as string, gone, offeredToken);
  }

  /**
   * GETDEL: a delete whose reply is the value it removed (nil: there was
   * none). It offers no token, so removing another client's lock with it is
   * the same bug as a plain DEL.
   */
  private completeGetDel(invoke: RedisInvokeEvent, done: RedisCompleteEvent): void {
    const key = invoke.args[0];
    if (key === undefined) return;
    const held = done.phase === 'ok' && typeof done.reply === 'string' ? done.reply : null;
    this.completeDelete(invoke, done, [key], null, held, held === null ? 0 : 1);
  }

  /**
   * EXPIRE/PEXPIRE (`unitMs` 1000 or 1), or EXPIREAT/PEXPIREAT (`unitMs`
   * null: an absolute time on the node's wall clock, which we cannot date).
   * A wrong call (arguments swapped, a key that does not exist) is refused
   * or answers 0, and changes nothing: the key keeps the TTL it had, or none.
   */
  private completeExpire(invoke: RedisInvokeEvent, done: RedisCompleteEvent, unitMs: number | null): void {
    const [key, amount] = invoke.args;
    if (key === undefined || done.phase !== 'ok' || replyCount(done.reply) !== 1) return;
    const ms = unitMs === null ? Number.NaN : Number(amount) * unitMs;
    const entry = this.keys(invoke.node).get(key);
    // A TTL we cannot date is modelled as none, as for PXAT: we never expire what we cannot date.
    if (entry) entry.expiresAt = Number.isFinite(ms) ? done.t + ms : Infinity;
    for (const observer of this.observers) observer.expired?.(invoke, done, key, Number.isFinite(ms) ? ms : undefined, false);
  }

  /** PERSIST: the key keeps its value and loses its TTL (Redis answers 1 only when it had one). */
  private completePersist(invoke: RedisInvokeEvent, done: RedisCompleteEvent): void {
    const key = invoke.args[0];
    if (key === undefined || done.phase !== 'ok' || replyCount(done.reply) !== 1) return;
    const entry = this.keys(invoke.node).get(key);
    if (entry) entry.expiresAt = Infinity;
    for (const observer of this.observers) observer.persisted?.(invoke, done, key, entry);
  }

  private commandsOf(script: string): ReadonlySet<string> {
    let called = this.scriptCommands.get(script);
    if (!called) {
      called = commandsCalled(script);
      if (this.scriptCommands.size < 256) this.scriptCommands.set(script, called);
    }
    return called;
  }

  private completeScript(invoke: RedisInvokeEvent, done: RedisCompleteEvent, script: string): void {
    const parsed = scriptArgs(invoke.args);
    if (parsed === null) return;
    const { keys, argv } = parsed;
    const called = this.commandsOf(script);
    const token = argv[0] ?? null;

    if (called.has('del') || called.has('unlink')) {
      this.completeDelete(invoke, done, keys, token, called.has('get') ? token : null);
      return;
    }
    const ttlMs = scriptTtl(argv);
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
    if (!called.has('pexpire') && !called.has('expire')) return;
    if (done.phase === 'ok' && truthy(done.reply)) {
      const ms = ttlMs === undefined ? undefined : called.has('pexpire') ? ttlMs : ttlMs * 1000;
      for (const key of keys) {
        const entry = model.get(key);
        if (entry && ms !== undefined) entry.expiresAt = done.t + ms;
        for (const observer of this.observers) observer.expired?.(invoke, done, key, ms, true);
      }
      return;
    }
    for (const key of keys) for (const observer of this.observers) observer.renewalFailed?.(invoke, done, key);
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

/**
 * Applies a completed delete that removed `removed` keys; returns what a one-key delete removed, if the key was known.
 * `heldValue`: what a removed key is known to have held (a checked release's token, GETDEL's reply), else null.
 */
function applyDelete(keys: Map<string, KeyEntry>, keysDeleted: readonly string[], removed: number, heldValue: string | null): KeyEntry | undefined {
  if (keysDeleted.length === 1) {
    const key = keysDeleted[0] as string;
    const entry = keys.get(key);
    if (removed === 1) {
      // A delete known to have removed one value, of a key the model thinks holds another: the other SET's
      // completion was recorded first but ran after this delete. The model's entry is the newer one.
      if (heldValue !== null && entry && entry.value !== heldValue) return undefined;
      keys.delete(key);
      return entry;
    }
    // A plain DEL (or a GETDEL answering nil) that removed nothing: the key was already gone.
    if (heldValue === null) keys.delete(key);
    // A checked release that removed nothing left the key (someone else's, or none) as it was.
    return undefined;
  }
  // Several keys: exact only when all or none were removed.
  if (removed === keysDeleted.length || (removed === 0 && heldValue === null)) for (const key of keysDeleted) keys.delete(key);
  else if (removed > 0)
    for (const key of keysDeleted) {
      const entry = keys.get(key);
      if (entry) entry.uncertain = true;
    }
  return undefined;
}
