/**
 * One learner connection (`new Redis(...)` or `createClient(...)`), held in the
 * worker next to the client's runtime (no thread crossing per command). It
 * resolves the learner's host to a lab node, connects through this client's
 * link proxy with the lab's ACL user, records every command in the history,
 * and shapes errors the way ioredis does, naming the learner's host, not ours.
 */
import IORedis from 'ioredis';
import type { HistoryInput, ReplyJson } from '@/lib/history';
import type { CommandFailure } from '@/lib/run';
import type { ResolvedTarget } from '../protocol';
import type { RedisCredentials, SandboxLimits } from '../types';

export interface GuestErrorShape {
  name: string;
  message: string;
  code?: string;
}

export type CommandResult = { ok: true; value: ReplyJson } | { ok: false; error: GuestErrorShape };

/** One command's answer inside a MULTI/EXEC or a pipeline, in the order sent: [0, reply] | [1, error]. */
export type BatchEntry = [0, ReplyJson] | [1, GuestErrorShape];

/** A transaction's or pipeline's answers; null when EXEC was refused because a WATCHed key changed. */
export type BatchResult = { ok: true; value: BatchEntry[] | null } | { ok: false; error: GuestErrorShape };

export type ConnEvent =
  | { event: 'connect' | 'ready' | 'close' | 'reconnecting' | 'end' }
  | { event: 'error'; error: GuestErrorShape };

/** Options a learner may set; anything else in their options object is ignored. */
export interface LearnerConnOptions {
  connectTimeout?: number;
  commandTimeout?: number;
  maxRetriesPerRequest?: number | null;
  enableOfflineQueue?: boolean;
  db?: number;
}

export interface ConnectionDeps {
  client: number;
  host: string;
  port: number;
  options: LearnerConnOptions;
  credentials: RedisCredentials;
  limits: SandboxLimits;
  resolve: () => Promise<ResolvedTarget>;
  emit: (event: HistoryInput) => void;
  nextOpId: () => number;
  onEvent: (event: ConnEvent) => void;
  /**
   * Set when the lab refused this connection (too many open: connection-places.ts): it never opens a
   * socket, and fails as an OS refusal does, with this error on its first event and on every command.
   */
  refused?: GuestErrorShape;
  /** Gives back the connection's place once it holds no socket any more (closed, or never opened). */
  release: () => void;
  /** A command failed because of the lab's state (not the command): said to the learner in their terms. */
  onFailure?: (failure: CommandFailure, message: string) => void;
}

/** Same error message repeated by reconnect attempts is forwarded at most this often. */
const ERROR_REPEAT_MS = 2_000;

export class HostConnection {
  private redis: IORedis | null = null;
  private node: number | null = null;
  private failure: GuestErrorShape | null = null;
  private state: 'resolving' | 'connecting' | 'ready' | 'down' | 'closed' = 'resolving';
  private readonly target: Promise<void>;
  /** Commands sent and not yet answered: opId → command, so a crash can mark them indeterminate. */
  private readonly inflight = new Map<number, { command: string; node: number }>();
  /**
   * How many times the connection became ready. A command issued while it was
   * not waits in ioredis's offline queue and is sent when it becomes ready: it
   * failed for sure only if that never happened before its error.
   */
  private readyCount = 0;
  private lastError = { message: '', at: 0 };
  /** The last socket error's code (ECONNREFUSED, ECONNRESET…): why ioredis gave up retrying. */
  private lastCode: string | null = null;

  constructor(private readonly deps: ConnectionDeps) {
    const refused = deps.refused;
    this.target = refused ? Promise.resolve().then(() => this.fail(refused)) : deps.resolve().then((t) => this.open(t));
  }

  /** The lab node this connection reaches, once resolved. */
  get nodeId(): number | null {
    return this.node;
  }

  /** Still connecting: like an open socket in Node, it keeps the client alive until it settles. */
  get connecting(): boolean {
    return this.state === 'resolving' || this.state === 'connecting';
  }

  private where(): string {
    return `${this.deps.host}:${this.deps.port}`;
  }

  private open(target: ResolvedTarget): void {
    if (this.state === 'closed') return;
    if (!target.ok) {
      this.fail(
        target.code === 'ENOTFOUND'
          ? { name: 'Error', message: `getaddrinfo ENOTFOUND ${this.deps.host}`, code: 'ENOTFOUND' }
          : { name: 'Error', message: `connect ECONNREFUSED ${this.where()}`, code: 'ECONNREFUSED' },
      );
      return;
    }
    this.node = target.node;
    this.state = 'connecting';
    const o = this.deps.options;
    const redis = new IORedis({
      host: '127.0.0.1',
      port: target.port,
      username: this.deps.credentials.username,
      password: this.deps.credentials.password,
      connectTimeout: positive(o.connectTimeout) ?? this.deps.limits.connectTimeoutMs,
      // No commandTimeout here: ioredis's own timer would fire before a reply already waiting in the socket
      // is read whenever this thread was starved of CPU (see `answerWithin`).
      maxRetriesPerRequest: o.maxRetriesPerRequest === undefined ? 1 : o.maxRetriesPerRequest,
      enableOfflineQueue: o.enableOfflineQueue ?? true,
      db: typeof o.db === 'number' ? o.db : 0,
      // INFO would need a permission the learner's ACL user does not have, and is not the learner's command.
      enableReadyCheck: false,
      retryStrategy: (times: number) => Math.min(times * 50, 2_000),
      lazyConnect: false,
    });
    this.redis = redis;
    redis.on('connect', () => this.deps.onEvent({ event: 'connect' }));
    redis.on('ready', () => {
      this.state = 'ready';
      this.readyCount += 1;
      this.deps.onEvent({ event: 'ready' });
    });
    redis.on('error', (err: Error) => {
      if (this.state === 'connecting') this.state = 'down';
      const shaped = this.shape(err);
      if (shaped.code) this.lastCode = shaped.code;
      const now = Date.now();
      if (shaped.message === this.lastError.message && now - this.lastError.at < ERROR_REPEAT_MS) return;
      this.lastError = { message: shaped.message, at: now };
      this.deps.onEvent({ event: 'error', error: shaped });
    });
    redis.on('close', () => {
      if (this.state === 'ready') this.state = 'down';
      if (this.state !== 'closed') this.deps.onEvent({ event: 'close' });
    });
    redis.on('reconnecting', () => {
      if (this.state !== 'closed') this.deps.onEvent({ event: 'reconnecting' });
    });
  }

  /** The connection can never open: no socket, so its place is free at once; every command fails with `failure`. */
  private fail(failure: GuestErrorShape): void {
    if (this.state === 'closed') return;
    this.state = 'down';
    this.failure = failure;
    this.deps.release();
    this.deps.onEvent({ event: 'error', error: failure });
  }

  /** Rewrites our loopback proxy address to the learner's host so messages read like their own setup. */
  private shape(err: unknown): GuestErrorShape {
    const e = err instanceof Error ? err : new Error(String(err));
    const code = (e as { code?: unknown }).code;
    const message = e.message.replace(/127\.0\.0\.1:\d+/g, this.where());
    const name = e.name === 'ReplyError' || e.constructor?.name === 'ReplyError' ? 'ReplyError' : e.name;
    return typeof code === 'string' ? { name, message, code } : { name, message };
  }

  async command(args: string[]): Promise<CommandResult> {
    await this.target;
    const name = (args[0] ?? '').toUpperCase();
    const redis = this.redis;
    if (this.state === 'closed') return { ok: false, error: { name: 'Error', message: 'Connection is closed.' } };
    if (!redis || this.node === null) {
      return { ok: false, error: this.failure ?? { name: 'Error', message: 'Connection is closed.' } };
    }
    const node = this.node;
    const opId = this.deps.nextOpId();
    const mayBeSent = this.sendWatch();
    this.inflight.set(opId, { command: name, node });
    this.deps.emit({ type: 'redis', phase: 'invoke', opId, client: this.deps.client, node, command: name, args: args.slice(1) });
    try {
      const reply = await this.answerWithin(name === 'QUIT' ? redis.quit() : redis.call(name, ...args.slice(1)));
      const value = toReplyJson(reply);
      if (this.inflight.delete(opId)) {
        this.deps.emit({ type: 'redis', phase: 'ok', opId, client: this.deps.client, node, command: name, reply: value });
      }
      return { ok: true, value };
    } catch (err) {
      const shaped = this.shape(err);
      if (this.inflight.delete(opId)) {
        // A reply error is definite (Redis refused it), and so is an error before the command could leave;
        // a timeout or a dropped connection after it may have left is not: it may have run.
        const phase = shaped.name === 'ReplyError' || !mayBeSent() ? 'fail' : 'info';
        this.deps.emit({ type: 'redis', phase, opId, client: this.deps.client, node, command: name, error: shaped.message });
      }
      this.reportFailure(name, node, shaped);
      return { ok: false, error: shaped };
    }
  }

  /**
   * `multi()…exec()` (atomic) or `pipeline()…exec()`: the commands leave in one write, as ioredis
   * sends them, so nothing of this client's can land between them. The history gets every command
   * as its own operation (MULTI and EXEC too for a transaction), invoked now and completed when
   * EXEC answers: queued commands take effect there, which is what the checker's model assumes.
   */
  async batch(commands: string[][], atomic: boolean): Promise<BatchResult> {
    await this.target;
    const redis = this.redis;
    if (this.state === 'closed') return { ok: false, error: { name: 'Error', message: 'Connection is closed.' } };
    if (!redis || this.node === null) {
      return { ok: false, error: this.failure ?? { name: 'Error', message: 'Connection is closed.' } };
    }
    const node = this.node;
    const client = this.deps.client;
    const mayBeSent = this.sendWatch();
    const invoke = (command: string, args: string[]) => {
      const opId = this.deps.nextOpId();
      this.inflight.set(opId, { command, node });
      this.deps.emit({ type: 'redis', phase: 'invoke', opId, client, node, command, args });
      return { opId, command };
    };
    type Op = ReturnType<typeof invoke>;
    const complete = (op: Op, outcome: { reply: ReplyJson } | { error: string; definite: boolean }) => {
      if (!this.inflight.delete(op.opId)) return;
      if ('reply' in outcome) this.deps.emit({ type: 'redis', phase: 'ok', opId: op.opId, client, node, command: op.command, reply: outcome.reply });
      else this.deps.emit({ type: 'redis', phase: outcome.definite ? 'fail' : 'info', opId: op.opId, client, node, command: op.command, error: outcome.error });
    };
    const multiOp = atomic ? invoke('MULTI', []) : null;
    const ops = commands.map((c) => invoke((c[0] ?? '').toUpperCase(), c.slice(1)));
    const execOp = atomic ? invoke('EXEC', []) : null;
    try {
      const batch = atomic ? redis.multi() : redis.pipeline();
      for (const c of commands) batch.call(c[0] ?? '', ...c.slice(1));
      const raw = await this.answerWithin(batch.exec());
      if (multiOp) complete(multiOp, { reply: 'OK' });
      if (raw === null) {
        // EXEC answered nil: a WATCHed key changed, and none of the queued commands ran.
        for (const op of ops) complete(op, { error: 'not executed: a watched key changed, so EXEC ran nothing', definite: true });
        if (execOp) complete(execOp, { reply: null });
        return { ok: true, value: null };
      }
      const entries = raw.map(([err, reply]): BatchEntry => (err ? [1, this.shape(err)] : [0, toReplyJson(reply)]));
      entries.forEach((entry, i) => {
        const op = ops[i];
        if (!op) return;
        if (entry[0] === 0) complete(op, { reply: entry[1] });
        // A command's own reply error is definite; a timeout or a dropped connection (pipelines only) is not.
        else complete(op, { error: entry[1].message, definite: entry[1].name === 'ReplyError' || !mayBeSent() });
      });
      if (execOp) complete(execOp, { reply: entries.map((e) => (e[0] === 0 ? e[1] : e[1].message)) });
      return { ok: true, value: entries };
    } catch (err) {
      // EXECABORT (a command refused while queueing: nothing ran) is definite; a lost connection is not.
      const shaped = this.shape(err);
      const definite = shaped.name === 'ReplyError' || !mayBeSent();
      for (const op of [multiOp, ...ops, execOp]) if (op) complete(op, { error: shaped.message, definite });
      this.reportFailure(atomic ? 'EXEC' : (ops[0]?.command ?? 'EXEC'), node, shaped);
      return { ok: false, error: shaped };
    }
  }

  /** Says why a command failed when the lab's state is the reason: the learner reads it in their terms. */
  private reportFailure(command: string, node: number, error: GuestErrorShape): void {
    const cause = failureCause(error, this.lastCode);
    if (!cause || !this.deps.onFailure) return;
    const asked = this.deps.options.maxRetriesPerRequest;
    const retriesSet = asked !== undefined;
    this.deps.onFailure({
      command,
      node,
      cause,
      retries: retriesSet ? asked : 1,
      retriesSet,
      timeoutMs: positive(this.deps.options.commandTimeout) ?? this.deps.limits.commandTimeoutMs,
      error: error.name !== 'Error' ? error.name : error.code ? error.code : `Error: ${error.message}`,
    }, error.message);
  }

  /**
   * The learner's `commandTimeout` (or the run's), as ioredis words it, but fair to a busy machine.
   * Timers run before the loop reads its sockets: after this thread waited for a CPU, ioredis's timer
   * would fail a command whose reply had arrived in time and sat unread. So the deadline is only
   * noticed in the loop's check phase, after the poll phase has read every reply that is there; a
   * command fails only if its reply has not arrived by the time the thread could look. The client's
   * own clock (Redlock's elapsed time) still counts the whole wait, so no lock is granted that
   * should not be.
   *
   * A `commandTimeout` the learner set counts from the call, as ioredis counts it (a command queued
   * while connecting included). The lab's own default is only a safety net for a node that never
   * answers (real ioredis has none), so it counts from when the command can leave: a command issued
   * before the connection is ready waits for it as ioredis would, bounded by the connect timeout and
   * the retries. Otherwise a client's first command fails whenever its worker is slow to finish the
   * handshake — it shares its thread with the other clients booting beside it — which on a busy
   * machine failed correct programs (lesson 2's reference, Client 1's first SET).
   */
  private answerWithin<T>(reply: Promise<T>): Promise<T> {
    const asked = positive(this.deps.options.commandTimeout);
    const ms = asked ?? this.deps.limits.commandTimeoutMs;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | null = null;
      const arm = () => {
        if (settled || timer) return;
        timer = setTimeout(
          () =>
            setImmediate(() => {
              if (settled) return;
              settled = true;
              reject(new Error('Command timed out'));
            }),
          ms,
        );
      };
      const redis = this.redis;
      const waitsForReady = asked === undefined && this.state !== 'ready' && redis !== null;
      if (waitsForReady) redis.once('ready', arm);
      else arm();
      const done = () => {
        settled = true;
        if (timer) clearTimeout(timer);
        if (waitsForReady) redis.off('ready', arm);
      };
      reply.then(
        (value) => {
          if (settled) return;
          done();
          resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          done();
          reject(error);
        },
      );
    });
  }

  /**
   * Called as a command is issued; the function it returns says, when the command has failed, whether it
   * may have reached the node: it was issued on a ready connection, or the connection became ready since
   * (ioredis sends its offline queue then).
   */
  private sendWatch(): () => boolean {
    const readyThen = this.state === 'ready';
    const readyCount = this.readyCount;
    return () => readyThen || this.readyCount !== readyCount || this.state === 'ready';
  }

  /** Drops the connection without QUIT (a crash or the end of the run): answers in flight become indeterminate. */
  destroy(reason: string): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    for (const [opId, op] of this.inflight) {
      this.deps.emit({ type: 'redis', phase: 'info', opId, client: this.deps.client, node: op.node, command: op.command, error: reason });
    }
    this.inflight.clear();
    this.redis?.disconnect();
    this.redis?.removeAllListeners();
    // ioredis may still emit errors while tearing down; an unhandled 'error' would crash the worker.
    this.redis?.on('error', () => undefined);
    // disconnect() closes the socket now (ioredis destroys its stream), so the place is free for the next one.
    this.deps.release();
  }
}

/** Why a command failed, when the lab's state is the reason; null for the command's own error (WRONGTYPE, a script's error…). */
export function failureCause(error: GuestErrorShape, lastCode: string | null): CommandFailure['cause'] | null {
  if (error.name === 'ReplyError') return /^READONLY\b/.test(error.message) ? 'readonly' : null;
  if (error.message === 'Command timed out') return 'timeout';
  const code = error.code ?? (error.name === 'MaxRetriesPerRequestError' ? lastCode : null);
  if (code === 'ECONNREFUSED') return 'refused';
  if (error.name === 'MaxRetriesPerRequestError' || code === 'ECONNRESET' || code === 'EPIPE' || /Connection is closed/.test(error.message)) return 'lost';
  return null;
}

function positive(n: number | undefined): number | undefined {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

function toReplyJson(reply: unknown): ReplyJson {
  if (reply === null || reply === undefined) return null;
  if (typeof reply === 'string' || typeof reply === 'number' || typeof reply === 'boolean') return reply;
  if (Buffer.isBuffer(reply)) return reply.toString('utf8');
  if (Array.isArray(reply)) return reply.map(toReplyJson);
  if (reply instanceof Error) return reply.message;
  // ioredis turns some replies into objects inside pipelines (HGETALL → { field: value }):
  // back to the flat array Redis sent, which the guest's own reply transforms expect.
  if (typeof reply === 'object') return Object.entries(reply).flatMap(([k, v]) => [k, toReplyJson(v)]);
  return String(reply);
}
