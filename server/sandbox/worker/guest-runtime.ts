/**
 * One client's QuickJS runtime and context: its boot (memory and stack limits,
 * the interrupt handler, the `__host` handshake, the lab's guest modules) and
 * the few ways the host enters it — the learner's program, a dispatch, taking
 * the outbox, running promise jobs. This file only speaks QuickJS: whether to
 * enter, and what an error means for the client, is decided by client.ts.
 *
 * The handshake, in globals that live only while the guest modules are
 * evaluated: the host sets `__host` ({ call, now, perf, names }), which core.js
 * takes and deletes; the guest modules share `__lab_internal` among
 * themselves; core.js leaves `__lab_dispatch`, `__lab_take` and `__lab_main`,
 * which the host takes. All are deleted before learner code runs.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { GUEST_NAMES_SOURCE, type DispatchKind } from './guest-names';

/** An error thrown in the guest, read out of QuickJS. */
export interface GuestErrorInfo {
  name: string;
  message: string;
  stack: string;
}

/** The host functions behind `__host`. */
export interface HostFunctions {
  /** A host call (host-calls.ts): a JSON-able payload in, a JSON-able answer out; a throw reaches the guest. */
  call(op: string, payload: unknown): unknown;
  /** The client's wall clock, for Date. */
  now(): number;
  /** Monotonic, for performance.now(). */
  perf(): number;
}

/** Jobs (promise reactions) run per QuickJS call; bounded so the loop can stop on a trip between batches. */
const JOB_BATCH = 64;

/**
 * Sets `__host` for the guest modules: the host functions, and the names of every host call, request
 * and dispatch (guest-names.ts) as a frozen object, so the guest never spells one itself.
 * Also used by the worker's warm-up, with stub functions.
 */
export function installHost(ctx: QuickJSContext, fns: HostFunctions): void {
  const host = ctx.newObject();
  const callFn = ctx.newFunction('call', (opH, payloadH) => {
    if (!opH || !payloadH || ctx.typeof(opH) !== 'string' || ctx.typeof(payloadH) !== 'string') {
      throw new TypeError('bad host call');
    }
    const op = ctx.getString(opH);
    const raw = ctx.getString(payloadH);
    const result = fns.call(op, raw === '' ? undefined : (JSON.parse(raw) as unknown));
    return ctx.newString(result === undefined ? '' : JSON.stringify(result));
  });
  const nowFn = ctx.newFunction('now', () => ctx.newNumber(fns.now()));
  const perfFn = ctx.newFunction('perf', () => ctx.newNumber(fns.perf()));
  const names = ctx.unwrapResult(ctx.evalCode(GUEST_NAMES_SOURCE, 'lab:names'));
  ctx.setProp(host, 'call', callFn);
  ctx.setProp(host, 'now', nowFn);
  ctx.setProp(host, 'perf', perfFn);
  ctx.setProp(host, 'names', names);
  ctx.setProp(ctx.global, '__host', host);
  for (const h of [callFn, nowFn, perfFn, names, host]) h.dispose();
}

export interface GuestRuntimeOptions {
  quickjs: QuickJSWASMModule;
  memoryBytes: number;
  stackBytes: number;
  /** The learner's file name, as it appears in stack traces. */
  fileName: string;
  /** QuickJS's interrupt handler (called very often). */
  interrupt(): boolean;
  host: HostFunctions;
  /** The guest threw past the lab's own modules (an entry into it ended with an exception). */
  thrown(error: GuestErrorInfo): void;
}

export class GuestRuntime {
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private disposed = false;
  private dispatchFn: QuickJSHandle | null = null;
  /** The guest's takeOutbox(): requests queued after the first one of a slice. */
  private takeFn: QuickJSHandle | null = null;
  /** The guest's runner for the learner's program; used once. */
  private mainFn: QuickJSHandle | null = null;
  /** The promise of the learner's top level (its wrapper is an async function). */
  private mainPromise: QuickJSHandle | null = null;

  constructor(private readonly options: GuestRuntimeOptions) {
    const runtime = options.quickjs.newRuntime();
    this.runtime = runtime;
    runtime.setMemoryLimit(options.memoryBytes);
    runtime.setMaxStackSize(options.stackBytes);
    runtime.setInterruptHandler(() => options.interrupt());
    this.context = runtime.newContext();
    installHost(this.context, options.host);
  }

  /** Evaluates the lab's guest modules and takes what they leave for the host; throws if one fails (a bug of ours). */
  loadGuest(sources: ReadonlyArray<{ name: string; code: string }>): void {
    const ctx = this.context;
    for (const source of sources) {
      ctx.unwrapResult(ctx.evalCode(source.code, source.name)).dispose();
    }
    this.dispatchFn = ctx.getProp(ctx.global, '__lab_dispatch');
    this.takeFn = ctx.getProp(ctx.global, '__lab_take');
    this.mainFn = ctx.getProp(ctx.global, '__lab_main');
    ctx
      .unwrapResult(ctx.evalCode('delete globalThis.__lab_dispatch; delete globalThis.__lab_take; delete globalThis.__lab_main; delete globalThis.__lab_internal;'))
      .dispose();
  }

  /** The guest modules loaded far enough to run a program. */
  get hasMain(): boolean {
    return this.mainFn !== null;
  }

  /** The client ended before its program could start. */
  dropMain(): void {
    this.mainFn?.dispose();
    this.mainFn = null;
  }

  /** Compiles the learner's (transpiled) script and starts it; a compile error goes to `syntaxError`, not `thrown`. */
  runProgram(script: string, syntaxError: (error: GuestErrorInfo) => void): void {
    const main = this.mainFn;
    if (!main) return;
    this.mainFn = null;
    const ctx = this.context;
    const fileName = this.options.fileName;
    const compiled = ctx.evalCode(script, fileName);
    if (compiled.error) {
      const info = this.readError(compiled.error);
      compiled.error.dispose();
      main.dispose();
      syntaxError(info);
      return;
    }
    const file = ctx.newString(fileName);
    const result = ctx.callFunction(main, ctx.undefined, compiled.value, file);
    file.dispose();
    compiled.value.dispose();
    main.dispose();
    if (result.error) this.onThrow(result.error);
    else this.mainPromise = result.value;
  }

  /**
   * The error the learner's top level was rejected with, if it was: after a limit trips, the guest's own
   * handlers can no longer run to report it, but its stack still says where the program was.
   */
  topLevelRejection(): GuestErrorInfo | null {
    const promise = this.mainPromise;
    if (!promise || this.disposed) return null;
    const ctx = this.context;
    try {
      const state = ctx.getPromiseState(promise);
      if (state.type !== 'rejected') {
        if (state.type === 'fulfilled' && !state.notAPromise) state.value.dispose();
        return null;
      }
      const info = this.readError(state.error);
      state.error.dispose();
      return info;
    } catch {
      return null;
    }
  }

  /** The only way the host calls into the running client: a batch of the inbox, or one timer. */
  dispatch(kind: DispatchKind, id: number, json: string): void {
    const ctx = this.context;
    if (!this.dispatchFn) return;
    const k = ctx.newString(kind);
    const i = ctx.newNumber(id);
    const j = ctx.newString(json);
    const result = ctx.callFunction(this.dispatchFn, ctx.undefined, k, i, j);
    k.dispose();
    i.dispose();
    j.dispose();
    if (result.error) this.onThrow(result.error);
    else result.value.dispose();
  }

  /** The guest's outbox as JSON ('' when empty), or null when there is nothing to take or the guest threw. */
  takeOutbox(): string | null {
    const ctx = this.context;
    if (!this.takeFn) return null;
    const result = ctx.callFunction(this.takeFn, ctx.undefined);
    if (result.error) {
      this.onThrow(result.error);
      return null;
    }
    const json = ctx.getString(result.value);
    result.value.dispose();
    return json;
  }

  /** Runs promise jobs while `mayContinue()` says so. */
  drainJobs(mayContinue: () => boolean): void {
    const runtime = this.runtime;
    // Bounded batches: an interrupted job can reject into a `.catch` that queues the loop again,
    // and executePendingJobs() without a bound would run that chain forever (QuickJS stops a batch
    // at the first job that throws, and the interrupt handler keeps throwing once tripped).
    while (mayContinue() && runtime.hasPendingJob()) {
      const result = runtime.executePendingJobs(JOB_BATCH);
      if (result.error) {
        this.onThrow(result.error);
        return;
      }
      result.dispose();
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // Disposing can fail if learner code left handles behind; the worker is thrown away after the run anyway.
    try {
      this.dispatchFn?.dispose();
      this.takeFn?.dispose();
      this.mainPromise?.dispose();
      this.context.dispose();
      this.runtime.dispose();
    } catch {
      /* the runtime is unreachable either way */
    }
    this.dispatchFn = null;
    this.takeFn = null;
    this.mainPromise = null;
  }

  private onThrow(handle: QuickJSHandle): void {
    const info = this.readError(handle);
    handle.dispose();
    this.options.thrown(info);
  }

  private readError(handle: QuickJSHandle): GuestErrorInfo {
    const ctx = this.context;
    const fileName = this.options.fileName;
    try {
      const dumped: unknown = ctx.dump(handle);
      if (dumped && typeof dumped === 'object') {
        const d = dumped as { name?: unknown; message?: unknown; stack?: unknown; lineNumber?: unknown };
        let stack = typeof d.stack === 'string' ? d.stack : '';
        // QuickJS reports a syntax error's position as lineNumber on the error, not in the stack.
        if (typeof d.lineNumber === 'number' && !stack.includes(fileName)) stack = `${fileName}:${d.lineNumber}\n${stack}`;
        return { name: String(d.name ?? 'Error'), message: String(d.message ?? ''), stack };
      }
      return { name: 'Error', message: `Uncaught ${String(dumped)}`, stack: '' };
    } catch {
      return { name: 'Error', message: 'Uncaught exception', stack: '' };
    }
  }
}
