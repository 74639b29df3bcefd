/**
 * One client's Redis traffic (and its calls to the run's store, which travel
 * the same way): its connections, the requests in flight on them, and the two batches that keep crossings into and out of QuickJS few.
 *
 * Out (the outbox): a host call costs far more than a guest function call, and
 * Redlock-style code sends several requests in one go. The first request of a
 * slice is a host call ('request'), which tells the host to take the rest from
 * the guest's outbox with one call when the slice ends. Nothing is sent before
 * the slice ends either way, so the order on the wire is the same.
 *
 * In (the inbox): replies and connection events that arrive in the same turn
 * of the event loop reach the guest in one entry into QuickJS.
 *
 * The requests themselves are a table like the host calls (host-calls.ts): op
 * name → typed payload → handler, declared once here; the guest gets the names
 * from guest-names.ts.
 */
import type { HistoryInput, ReplyJson } from '@/lib/history';
import type { Said } from '@/lib/words';
import type { CommandFailure } from '@/lib/run';
import type { ResolvedTarget, RunSpec } from '../protocol';
import {
  HostConnection,
  type BatchEntry,
  type BatchResult,
  type CommandResult,
  type ConnEvent,
  type GuestErrorShape,
  type LearnerConnOptions,
} from './connection';
import { clampConnectOptions } from './connect-options';
import type { ConnectionPlaces } from './connection-places';
import { LIMIT_WORDS } from './limit-words';
import type { Pacer } from './pacer';
import type { StoreWire, StoreWritePayload } from './store-wire';

/** What reaches a client from its connections, delivered in arrival order: [0, request, value] | [1, request, error] | [2, conn, event]. */
type InboxItem = [0, number, ReplyJson | BatchEntry[]] | [1, number, GuestErrorShape] | [2, number, ConnEvent];

/** Commands in one multi()/pipeline(): far above real use, and each still counts against the command rate. */
const MAX_BATCH_COMMANDS = 1_000;

/** What a request handler may use of its client's traffic. */
interface RequestScope {
  connection(id: number): HostConnection | undefined;
  /** Drops a closed connection from the client's table. */
  forget(id: number): void;
  /** Counts one command against the client's rate limit; throws (and trips the client) past it. */
  countCommand(): void;
  /** Sends `n` commands through `send` when the run's pacer lets them go. */
  paced<T>(n: number, send: () => Promise<T>): Promise<T>;
  /** The client's connection to the run's fenced store. */
  readonly store: StoreWire;
}

type RequestResult = CommandResult | BatchResult;
type RequestHandler = (r: RequestScope, payload: never) => Promise<RequestResult>;

/** The guest's async requests, `request(op, payload)` in core.js; each settles through the inbox. */
export const REQUESTS = {
  /** One command on connection `conn`. */
  command: (r, p: { conn: number; args: string[] }): Promise<CommandResult> => {
    const { conn, args } = p;
    r.countCommand();
    const c = r.connection(conn);
    return c && Array.isArray(args) ? r.paced(1, () => c.command(args.map(String))) : Promise.resolve(closed());
  },
  /** A transaction (`atomic`: MULTI/EXEC) or a pipeline, sent in one write. */
  batch: (r, p: { conn: number; commands: unknown; atomic: unknown }): Promise<RequestResult> => {
    const { conn, commands, atomic } = p;
    const list = Array.isArray(commands) ? commands.filter(Array.isArray).map((c: unknown[]) => c.map(String)) : [];
    if (list.length > MAX_BATCH_COMMANDS) {
      return Promise.resolve({ ok: false, error: { name: 'Error', message: `A pipeline or transaction in the lab holds at most ${MAX_BATCH_COMMANDS} commands (this one has ${list.length}).` } });
    }
    for (let i = 0; i < list.length; i++) r.countCommand();
    const c = r.connection(conn);
    return c ? r.paced(list.length, () => c.batch(list, atomic === true)) : Promise.resolve(closed());
  },
  /** QUIT, then the connection is closed. */
  quit: (r, conn: number): Promise<CommandResult> => {
    const c = r.connection(conn);
    return !c
      ? Promise.resolve({ ok: true, value: 'OK' })
      : c.command(['QUIT']).then((reply) => {
          c.destroy('connection closed by QUIT');
          r.forget(conn);
          return reply;
        });
  },
  /** `lab.store.write(key, value, token?)`: answered after the store's latency both ways (store-wire.ts). */
  storeWrite: (r, p: StoreWritePayload): Promise<CommandResult> => r.store.write(p),
  /** `lab.store.read(key)`: what the store held when the request arrived. */
  storeRead: (r, key: string): Promise<CommandResult> => r.store.read(key),
} satisfies Record<string, RequestHandler>;

export type RequestOp = keyof typeof REQUESTS;

/** What the requests need of the run. */
export interface RequestsRun {
  readonly spec: Pick<RunSpec, 'credentials' | 'limits'>;
  readonly pacer: Pacer;
  /** Open connections, counted per client and for the whole run. */
  readonly connectionPlaces: ConnectionPlaces;
  resolve(client: number, host: string, port: number): ResolvedTarget;
  emit(event: HistoryInput): void;
  nextOpId(): number;
}

export interface RequestsDeps {
  readonly client: number;
  readonly run: RequestsRun;
  countCommand(): void;
  /** The client has ended: what arrives now is dropped. */
  ended(): boolean;
  /** Passes a delivery through the client's gate. */
  deliver(work: () => void): void;
  /** Enters the guest with one inbox batch (JSON of the items, in arrival order). */
  dispatchInbox(json: string): void;
  /** The client's connection to the run's fenced store; its answers come back like replies. */
  readonly store: StoreWire;
}

export class ClientRequests {
  private readonly connections = new Map<number, HostConnection>();
  private nextConnection = 1;
  /** Requests (ids chosen by the guest) whose answer has not been delivered yet: they keep the client alive. */
  private readonly inflight = new Set<number>();
  /** Replies and connection events that arrived since the last delivery (one QuickJS entry for all of them). */
  private inbox: InboxItem[] = [];
  /** The guest sent a request this slice, so more may wait in its outbox. */
  private outboxSignalled = false;
  private readonly scope: RequestScope;
  /** Notes already written to the run's console (by their words' key): once per client is enough. */
  private readonly noted = new Set<string>();
  /** The last commands that failed because of the lab's state, with the message the program got (newest last). */
  private readonly failures: { message: string; failure: CommandFailure }[] = [];

  constructor(private readonly deps: RequestsDeps) {
    this.scope = {
      connection: (id) => this.connections.get(id),
      forget: (id) => void this.connections.delete(id),
      countCommand: () => deps.countCommand(),
      paced: (n, send) => new Promise((resolve, reject) => deps.run.pacer.admit(n, () => void send().then(resolve, reject))),
      store: deps.store,
    };
  }

  /** Why the program's error with this message happened, if a command of this client failed with it because of the lab. */
  failureFor(message: string): CommandFailure | undefined {
    for (let i = this.failures.length - 1; i >= 0; i--) if (this.failures[i]!.message === message) return this.failures[i]!.failure;
    return undefined;
  }

  /** Opens a learner connection (`new Redis(...)`, `createClient(...)`); its events arrive through the inbox. */
  open(p: { host: string; port: number; options: LearnerConnOptions }): number {
    const id = this.nextConnection++;
    const host = String(p.host);
    const port = Number(p.port);
    const { client, run } = this.deps;
    const { options, clamped } = clampConnectOptions(p.options ?? {}, run.spec.limits);
    for (const c of clamped) this.note(LIMIT_WORDS.connectOptionClamped(client, c.option, c.asked, c.max), c.option);
    const place = run.connectionPlaces.take(client);
    if (!place.ok) this.note(place.refusal);
    const conn = new HostConnection({
      client,
      host,
      port,
      options,
      credentials: run.spec.credentials,
      limits: run.spec.limits,
      resolve: () => Promise.resolve(run.resolve(client, host, port)),
      emit: (e) => run.emit(e),
      nextOpId: () => run.nextOpId(),
      onEvent: (event) => this.toInbox([2, id, event]),
      onFailure: (failure, message) => {
        this.failures.push({ message, failure });
        if (this.failures.length > 8) this.failures.shift();
      },
      // EMFILE is what an OS answers a process that has too many sockets open; the sentence says whose limit it is.
      ...(place.ok ? { release: place.release } : { release: () => undefined, refused: { name: 'Error', message: place.refusal.message, code: 'EMFILE' } }),
    });
    this.connections.set(id, conn);
    return id;
  }

  /**
   * The lab's own sentence in the run's console (client 0: the lab speaking, in the page's language),
   * once per client and kind: a program that loops on `new Redis()` gets the error every time, the note once.
   */
  private note(said: Said, detail = ''): void {
    const key = `${said.words.key}:${detail}`;
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.deps.run.emit({ type: 'console', client: 0, level: 'warn', text: said.message, words: said.words });
  }

  /** The lab node a connection reaches, once resolved (Redlock's votes name it). */
  nodeOf(id: number): number | null {
    return this.connections.get(id)?.nodeId ?? null;
  }

  /** The learner's disconnect(): dropped without QUIT. */
  disconnect(id: number): void {
    const c = this.connections.get(id);
    c?.destroy('disconnected');
    this.connections.delete(id);
  }

  /** The first request of a slice, sent as a host call; the rest wait in the guest's outbox until the slice ends. */
  sendFirst(r: unknown): void {
    this.outboxSignalled = true;
    this.start(r);
  }

  /** A request was sent this slice, so the guest's outbox must be taken before the slice ends. */
  get outboxWaiting(): boolean {
    return this.outboxSignalled;
  }

  /** Starts the requests the guest queued after the first one of this slice; `take` reads its outbox (null: leave it). */
  takeOutbox(take: () => string | null): void {
    this.outboxSignalled = false;
    const json = take();
    if (json === null || json === '') return;
    const queued: unknown = JSON.parse(json);
    if (!Array.isArray(queued)) throw new TypeError('bad request batch');
    for (const r of queued) this.start(r);
  }

  /** Answers still to come, or a connection still connecting (like an open socket in Node). */
  keepAlive(): boolean {
    if (this.inflight.size > 0 || this.inbox.length > 0) return true;
    for (const c of this.connections.values()) if (c.connecting) return true;
    return false;
  }

  /** The client ended: every connection is dropped (answers in flight become indeterminate in the history). */
  closeAll(reason: string): void {
    for (const c of this.connections.values()) c.destroy(reason);
    this.connections.clear();
  }

  /** Starts one async request `[id, op, payload]` from the guest; its answer is delivered through the inbox. */
  private start(r: unknown): void {
    if (!Array.isArray(r) || typeof r[0] !== 'number' || typeof r[1] !== 'string') throw new TypeError('bad request');
    const [id, op, p] = r as [number, string, unknown];
    if (!Object.hasOwn(REQUESTS, op)) throw new Error(`unknown request ${op}`);
    // The payload's shape is the guest's side of the table (core.js and the client modules build it).
    const handler = REQUESTS[op as RequestOp] as (r: RequestScope, payload: unknown) => Promise<RequestResult>;
    const work = handler(this.scope, p);
    this.inflight.add(id);
    void work.then((result) => this.toInbox(result.ok ? [0, id, result.value] : [1, id, result.error]));
  }

  /**
   * Replies and connection events that arrive in the same turn of the event loop (five SETs of a
   * Redlock round answered together) reach the client in one entry into QuickJS instead of five;
   * setImmediate runs right after the I/O phase that produced them, so nothing waits for a timer.
   */
  private toInbox(item: InboxItem): void {
    if (this.deps.ended()) return;
    this.inbox.push(item);
    if (this.inbox.length > 1) return;
    setImmediate(() => {
      const batch = this.inbox;
      this.inbox = [];
      this.deps.deliver(() => {
        for (const item of batch) if (item[0] !== 2) this.inflight.delete(item[1]);
        this.deps.dispatchInbox(JSON.stringify(batch));
      });
    });
  }
}

function closed(): CommandResult {
  return { ok: false, error: { name: 'Error', message: 'Connection is closed.' } };
}
