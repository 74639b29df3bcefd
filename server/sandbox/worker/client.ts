/**
 * One learner client inside a worker: its own QuickJS runtime and context, its
 * timers and Redis connections, and its gate. Every way the host reaches into
 * the client (a reply, a timer, a connection event, the start itself) is a
 * *delivery* that passes the gate: while the client is paused the deliveries
 * queue and arrive late, exactly like a process stopped by a GC pause.
 *
 * Limits: each entry into learner code is a CPU slice watched by the QuickJS
 * interrupt handler. The first interrupt is final: the handler keeps saying
 * "interrupt" and the client is torn down as soon as control is back here, so
 * a `.catch` cannot swallow it and loop again.
 */
import { randomBytes, randomInt, randomUUID, createHash } from 'node:crypto';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import type { ConsoleEvent, HistoryInput, LockEvent, ReplyJson } from '@/lib/history';
import { locateInLearnerSource } from '../transpile';
import { WALL_NET_FACTOR, type ResolvedTarget, type RunSpec } from '../protocol';
import type { ClientEndStatus, Diagnostic } from '../types';
import { HostConnection, type BatchEntry, type BatchResult, type CommandResult, type ConnEvent, type GuestErrorShape, type LearnerConnOptions } from './connection';
import type { FencedStore } from './fenced-store';
import type { Pacer } from './pacer';
import type { Overrun, SliceMeter } from './slice-meter';

export interface RunServices {
  readonly spec: RunSpec;
  readonly quickjs: QuickJSWASMModule;
  readonly guestSources: ReadonlyArray<{ name: string; code: string }>;
  readonly script: string;
  readonly headLength: number;
  /** Measures each slice of learner code in this worker thread's CPU time. */
  readonly meter: SliceMeter;
  readonly store: FencedStore;
  readonly nodes: number[];
  /** The run's share of the server's command rate: commands wait here for their turn. */
  readonly pacer: Pacer;
  emit(event: HistoryInput): void;
  diagnostic(d: Diagnostic): void;
  nextOpId(): number;
  resolve(client: number, host: string, port: number): ResolvedTarget;
  jobEnter(job: string): number;
  /** The client ended by itself (exit, error, crash, timeout). */
  clientEnded(client: GuestClient): void;
  /** The client broke a limit: the run ends. */
  limitBroken(client: GuestClient, message: string): void;
}

interface HostTimer {
  id: number;
  delayMs: number;
  repeat: boolean;
  ref: boolean;
  /** On the client's (skewed) clock. */
  dueAt: number;
  handle: ReturnType<typeof setTimeout> | null;
}

interface GuestErrorInfo {
  name: string;
  message: string;
  stack: string;
}

type Delivery = () => void;

/** What reaches a client from its connections, delivered in arrival order: [0, request, value] | [1, request, error] | [2, conn, event]. */
type InboxItem = [0, number, ReplyJson | BatchEntry[]] | [1, number, GuestErrorShape] | [2, number, ConnEvent];

/** Commands in one multi()/pipeline(): far above real use, and each still counts against the command rate. */
const MAX_BATCH_COMMANDS = 1_000;

/** Jobs (promise reactions) run per QuickJS call; bounded so the loop can stop on a trip between batches. */
const JOB_BATCH = 64;

/** Slice allowed for evaluating the lab's own guest modules when a client boots. */
const BOOT_SLICE_MS = 2_000;

export class GuestClient {
  private runtime: QuickJSRuntime | null = null;
  private context: QuickJSContext | null = null;
  private dispatchFn: QuickJSHandle | null = null;
  /** The guest's takeOutbox(): requests queued after the first one of a slice. */
  private takeFn: QuickJSHandle | null = null;
  /** The guest sent a request this slice, so more may wait in its outbox. */
  private outboxSignalled = false;
  /** Replies and connection events that arrived since the last delivery (one QuickJS entry for all of them). */
  private inbox: InboxItem[] = [];
  private ended: ClientEndStatus | null = null;
  private endError: string | undefined;
  private paused = false;
  private resumeTimer: ReturnType<typeof setTimeout> | null = null;
  private wallTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly queue: Delivery[] = [];
  private readonly timers = new Map<number, HostTimer>();
  /** Requests (ids chosen by the guest) whose answer has not been delivered yet: they keep the client alive. */
  private readonly requests = new Set<number>();
  private readonly connections = new Map<number, HostConnection>();
  private nextConnection = 1;
  private started = false;
  private inSlice = false;
  /** CPU charged to this client so far (its own slices only; the lab's boot is free). */
  private cpuUsedMs = 0;
  private sliceLimitMs = 0;
  private booting = false;
  /** Set by the interrupt handler or a host call that broke a limit; final. */
  private trip: string | null = null;
  /** Set while inside learner code when the client must end (uncaught error); applied on the way out. */
  private pendingEnd: { status: ClientEndStatus; error?: string } | null = null;
  private skewMs = 0;
  private consoleBytes = 0;
  private commandWindow = { start: 0, count: 0 };

  constructor(
    readonly id: number,
    private readonly run: RunServices,
  ) {}

  get status(): ClientEndStatus | null {
    return this.ended;
  }
  get isPaused(): boolean {
    return this.paused;
  }
  get error(): string | undefined {
    return this.endError;
  }

  private get limits() {
    return this.run.spec.limits;
  }

  /** The client's wall clock: the worker's plus its skew. */
  private clientNow(): number {
    return Date.now() + this.skewMs;
  }

  private emit(event: HistoryInput): void {
    this.run.emit(event);
  }

  // ---- lifecycle -------------------------------------------------------------

  start(): void {
    if (this.ended || this.started) return;
    this.started = true;
    this.emit({ type: 'client', client: this.id, event: 'start', runId: this.run.spec.runId });
    this.wallTimer = setTimeout(
      () => this.end('timeout', `Client ${this.id} reached the wall-clock limit of ${this.limits.wallClockMs} ms.`),
      this.limits.wallClockMs,
    );
    this.deliver(() => this.boot());
  }

  private boot(): void {
    const runtime = this.run.quickjs.newRuntime();
    this.runtime = runtime;
    runtime.setMemoryLimit(this.limits.memoryBytes);
    runtime.setMaxStackSize(this.limits.stackBytes);
    runtime.setInterruptHandler(() => this.shouldInterrupt());
    const ctx = runtime.newContext();
    this.context = ctx;
    this.installHost(ctx);
    let main: QuickJSHandle | null = null;
    // Our own modules are trusted and, on a cold worker, slow to evaluate: they get a generous slice
    // that does not count against the learner's CPU budget.
    this.sliceLimitMs = BOOT_SLICE_MS;
    this.booting = true;
    this.enter(() => {
      for (const source of this.run.guestSources) {
        ctx.unwrapResult(ctx.evalCode(source.code, source.name)).dispose();
      }
      this.dispatchFn = ctx.getProp(ctx.global, '__lab_dispatch');
      this.takeFn = ctx.getProp(ctx.global, '__lab_take');
      main = ctx.getProp(ctx.global, '__lab_main');
      ctx
        .unwrapResult(ctx.evalCode('delete globalThis.__lab_dispatch; delete globalThis.__lab_take; delete globalThis.__lab_main; delete globalThis.__lab_internal;'))
        .dispose();
    });
    this.sliceLimitMs = this.limits.cpuSliceMs;
    this.cpuUsedMs = 0;
    this.booting = false;
    const mainFn = main as QuickJSHandle | null;
    if (!mainFn) return;
    if (this.ended) {
      mainFn.dispose();
      return;
    }
    this.enter(() => {
      const main = mainFn;
      const compiled = ctx.evalCode(this.run.script, this.run.spec.fileName);
      if (compiled.error) {
        const info = this.readError(compiled.error);
        compiled.error.dispose();
        main.dispose();
        this.failWith(info, 'syntax');
        return;
      }
      const file = ctx.newString(this.run.spec.fileName);
      const result = ctx.callFunction(main, ctx.undefined, compiled.value, file);
      file.dispose();
      compiled.value.dispose();
      main.dispose();
      if (result.error) this.onGuestThrow(result.error);
      else result.value.dispose();
    });
  }

  /** Ends the client; safe from anywhere except inside learner code (see `enter`). */
  end(status: ClientEndStatus, error?: string): void {
    if (this.ended) return;
    if (this.inSlice) {
      this.pendingEnd ??= error === undefined ? { status } : { status, error };
      return;
    }
    this.ended = status;
    this.endError = error;
    if (this.wallTimer) clearTimeout(this.wallTimer);
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    for (const t of this.timers.values()) if (t.handle) clearTimeout(t.handle);
    this.timers.clear();
    this.queue.length = 0;
    const reason = status === 'crashed' ? 'client crashed' : status === 'exited' ? 'client exited' : `client ended (${status})`;
    for (const c of this.connections.values()) c.destroy(reason);
    this.connections.clear();
    this.dispose();
    const runId = this.run.spec.runId;
    if (status === 'crashed') this.emit({ type: 'client', client: this.id, event: 'crash', runId });
    else if (status === 'error' || status === 'limit' || status === 'timeout') {
      this.emit({ type: 'client', client: this.id, event: 'error', runId, detail: error ?? status });
    } else this.emit({ type: 'client', client: this.id, event: 'exit', runId, detail: status });
    if (status !== 'limit' && status !== 'stopped' && status !== 'killed') this.run.clientEnded(this);
  }

  private dispose(): void {
    // Disposing can fail if learner code left handles behind; the worker is thrown away after the run anyway.
    try {
      this.dispatchFn?.dispose();
      this.takeFn?.dispose();
      this.context?.dispose();
      this.runtime?.dispose();
    } catch {
      /* the runtime is unreachable either way */
    }
    this.dispatchFn = null;
    this.takeFn = null;
    this.context = null;
    this.runtime = null;
  }

  // ---- the gate --------------------------------------------------------------

  pause(ms?: number): void {
    if (this.ended) return;
    const runId = this.run.spec.runId;
    this.paused = true;
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = ms !== undefined ? setTimeout(() => this.resume(), ms) : null;
    this.emit(ms !== undefined ? { type: 'client', client: this.id, event: 'pause', runId, durationMs: ms } : { type: 'client', client: this.id, event: 'pause', runId });
  }

  resume(): void {
    if (this.ended || !this.paused) return;
    this.paused = false;
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
    this.emit({ type: 'client', client: this.id, event: 'resume', runId: this.run.spec.runId });
    while (this.queue.length > 0 && !this.paused && !this.ended) this.queue.shift()?.();
    this.checkIdle();
  }

  setSkew(skewMs: number): void {
    if (this.ended) return;
    this.skewMs = skewMs;
    this.emit({ type: 'client', client: this.id, event: 'skew', runId: this.run.spec.runId, durationMs: skewMs });
    // Timers are due on the client's clock, so a jump forward brings them closer (and back, further).
    for (const t of this.timers.values()) {
      if (t.handle) {
        clearTimeout(t.handle);
        this.arm(t);
      }
    }
  }

  private deliver(work: Delivery): void {
    if (this.ended) return;
    if (this.paused) this.queue.push(work);
    else work();
  }

  // ---- entering learner code ---------------------------------------------------

  private enter(work: () => void): void {
    if (this.ended || !this.runtime) return;
    this.inSlice = true;
    this.run.meter.begin(this.id, this.sliceLimitMs, this.booting ? Infinity : this.limits.cpuTotalMs - this.cpuUsedMs);
    try {
      work();
      this.drainJobs();
      if (this.outboxSignalled) this.takeOutbox();
    } catch (error) {
      // A host-side failure while running the client: end this client, keep the worker.
      this.pendingEnd ??= { status: 'error', error: `Internal error in the sandbox: ${String(error)}` };
    } finally {
      this.cpuUsedMs += this.run.meter.end();
      this.inSlice = false;
    }
    if (this.trip) {
      this.run.limitBroken(this, this.trip);
      return;
    }
    if (this.pendingEnd) {
      const { status, error } = this.pendingEnd;
      this.pendingEnd = null;
      this.end(status, error);
      return;
    }
    this.checkIdle();
  }

  private drainJobs(): void {
    const runtime = this.runtime;
    if (!runtime) return;
    // Bounded batches: an interrupted job can reject into a `.catch` that queues the loop again,
    // and executePendingJobs() without a bound would run that chain forever (QuickJS stops a batch
    // at the first job that throws, and the interrupt handler keeps throwing once tripped).
    while (!this.trip && !this.pendingEnd && runtime.hasPendingJob()) {
      const result = runtime.executePendingJobs(JOB_BATCH);
      if (result.error) {
        this.onGuestThrow(result.error);
        return;
      }
      result.dispose();
    }
  }

  /** QuickJS's interrupt handler: called very often, so the common answer must stay cheap (see SliceMeter). */
  private shouldInterrupt(): boolean {
    if (this.trip) return true;
    if (!this.inSlice) return false;
    const overrun = this.run.meter.overrun();
    if (overrun === null) return false;
    this.trip = this.overrunMessage(overrun);
    return true;
  }

  private overrunMessage(overrun: Overrun): string {
    switch (overrun) {
      case 'slice':
        return `Client ${this.id} ran for more than ${this.limits.cpuSliceMs} ms without yielding (an endless loop?), so the run was stopped.`;
      case 'wall':
        return `Client ${this.id} ran for more than ${WALL_NET_FACTOR * this.sliceLimitMs} ms of wall-clock time without yielding, so the run was stopped.`;
      case 'total':
        return `Client ${this.id} used more than ${this.limits.cpuTotalMs} ms of CPU, so the run was stopped.`;
    }
  }

  /** Like Node when the event loop is empty: nothing can wake the program any more. */
  private checkIdle(): void {
    if (this.ended || !this.started || this.paused || this.inSlice || this.booting) return;
    if (this.queue.length > 0 || this.requests.size > 0 || this.inbox.length > 0) return;
    for (const t of this.timers.values()) if (t.ref) return;
    for (const c of this.connections.values()) if (c.connecting) return;
    this.end('exited');
  }

  private callDispatch(kind: string, id: number, json: string): void {
    this.enter(() => {
      const ctx = this.context;
      if (!ctx || !this.dispatchFn) return;
      const k = ctx.newString(kind);
      const i = ctx.newNumber(id);
      const j = ctx.newString(json);
      const result = ctx.callFunction(this.dispatchFn, ctx.undefined, k, i, j);
      k.dispose();
      i.dispose();
      j.dispose();
      if (result.error) this.onGuestThrow(result.error);
      else result.value.dispose();
    });
  }

  private onGuestThrow(handle: QuickJSHandle): void {
    const info = this.readError(handle);
    handle.dispose();
    if (this.trip) return;
    if (/out of memory/i.test(info.message)) {
      this.trip = `Client ${this.id} ran out of memory (limit ${Math.round(this.limits.memoryBytes / 1048576)} MB), so the run was stopped.`;
      return;
    }
    this.failWith(info, 'runtime');
  }

  private readError(handle: QuickJSHandle): GuestErrorInfo {
    const ctx = this.context;
    if (!ctx) return { name: 'Error', message: 'unknown error', stack: '' };
    try {
      const dumped: unknown = ctx.dump(handle);
      if (dumped && typeof dumped === 'object') {
        const d = dumped as { name?: unknown; message?: unknown; stack?: unknown; lineNumber?: unknown };
        let stack = typeof d.stack === 'string' ? d.stack : '';
        // QuickJS reports a syntax error's position as lineNumber on the error, not in the stack.
        if (typeof d.lineNumber === 'number' && !stack.includes(this.run.spec.fileName)) stack = `${this.run.spec.fileName}:${d.lineNumber}\n${stack}`;
        return { name: String(d.name ?? 'Error'), message: String(d.message ?? ''), stack };
      }
      return { name: 'Error', message: `Uncaught ${String(dumped)}`, stack: '' };
    } catch {
      return { name: 'Error', message: 'Uncaught exception', stack: '' };
    }
  }

  private failWith(info: GuestErrorInfo, kind: 'syntax' | 'runtime'): void {
    if (/out of memory/i.test(info.message) && !this.trip) {
      this.trip = `Client ${this.id} ran out of memory (limit ${Math.round(this.limits.memoryBytes / 1048576)} MB), so the run was stopped.`;
      return;
    }
    const text = info.message.startsWith('Uncaught') ? info.message : `${info.name}: ${info.message}`;
    const where = locateInLearnerSource(info.stack, this.run.spec.fileName, this.run.headLength);
    this.run.diagnostic({
      client: this.id,
      severity: 'error',
      kind,
      message: text,
      line: where?.line ?? 1,
      column: where?.column ?? 1,
    });
    this.end('error', where ? `${text} (line ${where.line})` : text);
  }

  // ---- host functions ----------------------------------------------------------

  private installHost(ctx: QuickJSContext): void {
    const host = ctx.newObject();
    const callFn = ctx.newFunction('call', (opH, payloadH) => {
      if (!opH || !payloadH || ctx.typeof(opH) !== 'string' || ctx.typeof(payloadH) !== 'string') {
        throw new TypeError('bad host call');
      }
      // Jobs run in batches: once the client is ending (an uncaught error), the rest of the batch may
      // still compute but can no longer act, as if the process were already gone.
      if (this.pendingEnd) throw new Error('this client has ended');
      const op = ctx.getString(opH);
      const raw = ctx.getString(payloadH);
      const result = this.hostCall(op, raw === '' ? undefined : (JSON.parse(raw) as unknown));
      return ctx.newString(result === undefined ? '' : JSON.stringify(result));
    });
    const nowFn = ctx.newFunction('now', () => ctx.newNumber(this.clientNow()));
    const perfFn = ctx.newFunction('perf', () => ctx.newNumber(performance.now()));
    ctx.setProp(host, 'call', callFn);
    ctx.setProp(host, 'now', nowFn);
    ctx.setProp(host, 'perf', perfFn);
    ctx.setProp(ctx.global, '__host', host);
    callFn.dispose();
    nowFn.dispose();
    perfFn.dispose();
    host.dispose();
  }

  /** Synchronous calls from learner code; async ones return a request id answered by a 'reply' delivery. */
  private hostCall(op: string, p: unknown): unknown {
    const runId = this.run.spec.runId;
    switch (op) {
      case 'info':
        return { client: this.id, clients: this.run.spec.clients, nodes: this.run.nodes };
      case 'console': {
        const { level, text } = p as { level: ConsoleEvent['level']; text: string };
        this.consoleBytes += Buffer.byteLength(text) + 1;
        if (this.consoleBytes > this.limits.consoleBytes) {
          this.trip = `Client ${this.id} printed more than ${Math.round(this.limits.consoleBytes / 1024)} KB of console output, so the run was stopped.`;
          throw new Error('console output limit reached');
        }
        this.emit({ type: 'console', client: this.id, level, text, runId });
        return undefined;
      }
      case 'uncaught': {
        const { error } = p as { kind: string; error: GuestErrorInfo };
        this.failWith(error, 'runtime');
        return undefined;
      }
      case 'mainDone': {
        const r = p as { ok: boolean; error?: GuestErrorInfo };
        if (!r.ok && r.error) this.failWith(r.error, 'runtime');
        return undefined;
      }
      case 'timerSet': {
        const [id, delayMs, repeat] = p as [number, number, boolean];
        const t: HostTimer = { id, delayMs, repeat, ref: true, dueAt: this.clientNow() + delayMs, handle: null };
        this.timers.set(id, t);
        this.arm(t);
        return undefined;
      }
      case 'timerClear': {
        const t = this.timers.get(p as number);
        if (t?.handle) clearTimeout(t.handle);
        this.timers.delete(p as number);
        return undefined;
      }
      case 'timerRef': {
        const [id, ref] = p as [number, boolean];
        const t = this.timers.get(id);
        if (t) t.ref = ref;
        return undefined;
      }
      case 'timerRefresh': {
        const t = this.timers.get(p as number);
        if (t?.handle) {
          clearTimeout(t.handle);
          t.dueAt = this.clientNow() + t.delayMs;
          this.arm(t);
        }
        return undefined;
      }
      case 'uuid':
        return randomUUID();
      case 'randomHex':
        return randomBytes(Math.max(0, Math.min(65536, Number(p) | 0))).toString('hex');
      case 'randomInt': {
        const [min, max] = p as [number, number];
        return randomInt(min, max);
      }
      case 'hexTo': {
        const { hex, encoding } = p as { hex: string; encoding: 'base64' | 'base64url' };
        return Buffer.from(hex, 'hex').toString(encoding);
      }
      case 'hash': {
        const { algorithm, data, encoding } = p as { algorithm: string; data: string; encoding: 'hex' | 'base64' };
        return createHash(algorithm).update(data).digest(encoding);
      }
      case 'jobEnter': {
        const job = String(p);
        const execution = this.run.jobEnter(job);
        this.emit({ type: 'job', phase: 'enter', client: this.id, job, execution, runId });
        return execution;
      }
      case 'jobExit': {
        const { job, execution } = p as { job: string; execution: number };
        this.emit({ type: 'job', phase: 'exit', client: this.id, job, execution, runId });
        return undefined;
      }
      case 'storeWrite': {
        const { key, value, token } = p as { key: string; value: string; token: number | null };
        const r = this.run.store.write(key, value, token);
        this.emit({
          type: 'store',
          client: this.id,
          key,
          value,
          token,
          accepted: r.accepted,
          highest: r.highest,
          runId,
          ...(r.reason ? { reason: r.reason } : {}),
        });
        return r;
      }
      case 'storeRead':
        return this.run.store.read(String(p));
      case 'lockEvent': {
        const e = p as Omit<LockEvent, 'seq' | 't' | 'type' | 'client'>;
        this.emit({ ...e, type: 'lock', client: this.id, runId });
        return undefined;
      }
      case 'connect':
        return this.connect(p as { host: string; port: number; options: LearnerConnOptions });
      case 'request': {
        // The first request of a slice; the rest wait in the guest's outbox until the slice ends.
        this.outboxSignalled = true;
        this.startRequest(p);
        return undefined;
      }
      case 'connNode':
        return this.connections.get(p as number)?.nodeId ?? null;
      case 'disconnect': {
        const c = this.connections.get(p as number);
        c?.destroy('disconnected');
        this.connections.delete(p as number);
        return undefined;
      }
      default:
        throw new Error(`unknown host call ${op}`);
    }
  }

  private countCommand(): void {
    const now = performance.now();
    if (now - this.commandWindow.start >= 1000) this.commandWindow = { start: now, count: 0 };
    this.commandWindow.count += 1;
    if (this.commandWindow.count > this.limits.commandsPerSecond) {
      this.trip = `Client ${this.id} sent more than ${this.limits.commandsPerSecond} Redis commands in one second, so the run was stopped.`;
      throw new Error('Redis command rate limit reached');
    }
  }

  /** Sends `n` commands through `send` when the run's pacer lets them go. */
  private paced<T>(n: number, send: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => this.run.pacer.admit(n, () => void send().then(resolve, reject)));
  }

  /** Collects the requests the guest queued after the first one of this slice. */
  private takeOutbox(): void {
    this.outboxSignalled = false;
    const ctx = this.context;
    if (!ctx || !this.takeFn || this.trip || this.pendingEnd) return;
    const result = ctx.callFunction(this.takeFn, ctx.undefined);
    if (result.error) {
      this.onGuestThrow(result.error);
      return;
    }
    const json = ctx.getString(result.value);
    result.value.dispose();
    if (json === '') return;
    const queued: unknown = JSON.parse(json);
    if (!Array.isArray(queued)) throw new TypeError('bad request batch');
    for (const r of queued) this.startRequest(r);
  }

  /** Starts one async request `[id, op, payload]` from the guest; its answer is delivered through the inbox. */
  private startRequest(r: unknown): void {
    if (!Array.isArray(r) || typeof r[0] !== 'number' || typeof r[1] !== 'string') throw new TypeError('bad request');
    const [id, op, p] = r as [number, string, unknown];
    let work: Promise<CommandResult | BatchResult>;
    if (op === 'batch') {
      const { conn, commands, atomic } = p as { conn: number; commands: unknown; atomic: unknown };
      const list = Array.isArray(commands) ? commands.filter(Array.isArray).map((c: unknown[]) => c.map(String)) : [];
      if (list.length > MAX_BATCH_COMMANDS) {
        work = Promise.resolve({ ok: false, error: { name: 'Error', message: `A pipeline or transaction in the lab holds at most ${MAX_BATCH_COMMANDS} commands (this one has ${list.length}).` } });
      } else {
        for (let i = 0; i < list.length; i++) this.countCommand();
        const c = this.connections.get(conn);
        work = c ? this.paced(list.length, () => c.batch(list, atomic === true)) : Promise.resolve(closed());
      }
    } else if (op === 'command') {
      const { conn, args } = p as { conn: number; args: string[] };
      this.countCommand();
      const c = this.connections.get(conn);
      work = c && Array.isArray(args) ? this.paced(1, () => c.command(args.map(String))) : Promise.resolve(closed());
    } else if (op === 'quit') {
      const c = this.connections.get(p as number);
      work = !c
        ? Promise.resolve({ ok: true, value: 'OK' })
        : c.command(['QUIT']).then((reply) => {
            c.destroy('connection closed by QUIT');
            this.connections.delete(p as number);
            return reply;
          });
    } else throw new Error(`unknown request ${op}`);
    this.requests.add(id);
    void work.then((result) => this.toInbox(result.ok ? [0, id, result.value] : [1, id, result.error]));
  }

  /**
   * Replies and connection events that arrive in the same turn of the event loop (five SETs of a
   * Redlock round answered together) reach the client in one entry into QuickJS instead of five;
   * setImmediate runs right after the I/O phase that produced them, so nothing waits for a timer.
   */
  private toInbox(item: InboxItem): void {
    if (this.ended) return;
    this.inbox.push(item);
    if (this.inbox.length > 1) return;
    setImmediate(() => {
      const batch = this.inbox;
      this.inbox = [];
      this.deliver(() => {
        for (const item of batch) if (item[0] !== 2) this.requests.delete(item[1]);
        this.callDispatch('inbox', 0, JSON.stringify(batch));
      });
    });
  }

  private connect(p: { host: string; port: number; options: LearnerConnOptions }): number {
    const id = this.nextConnection++;
    const host = String(p.host);
    const port = Number(p.port);
    const conn = new HostConnection({
      client: this.id,
      host,
      port,
      options: p.options ?? {},
      credentials: this.run.spec.credentials,
      limits: this.limits,
      resolve: () => Promise.resolve(this.run.resolve(this.id, host, port)),
      emit: (e) => this.emit(e),
      nextOpId: () => this.run.nextOpId(),
      onEvent: (event) => this.toInbox([2, id, event]),
    });
    this.connections.set(id, conn);
    return id;
  }

  private arm(t: HostTimer): void {
    const wait = Math.max(0, t.dueAt - this.clientNow());
    t.handle = setTimeout(() => {
      t.handle = null;
      this.deliver(() => {
        if (this.timers.get(t.id) !== t) return;
        if (t.repeat) {
          t.dueAt = this.clientNow() + t.delayMs;
          this.arm(t);
        } else this.timers.delete(t.id);
        this.callDispatch('timer', t.id, '');
      });
    }, wait);
  }
}

function closed(): CommandResult {
  return { ok: false, error: { name: 'Error', message: 'Connection is closed.' } };
}
