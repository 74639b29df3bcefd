/**
 * One learner client inside a worker, composed of parts with one job each:
 * its QuickJS runtime (guest-runtime.ts), its pause gate (gate.ts), its limits
 * (limits.ts), its timers (guest-timers.ts), its Redis connections and
 * requests (requests.ts), its connection to the run's store (store-wire.ts),
 * its seeded randomness (client-random.ts), and the host calls its guest code
 * makes (host-calls.ts). This class owns the client's life: the start, every entry
 * into learner code (one CPU slice each), the end, and noticing when nothing
 * is left to wait for.
 *
 * Every way the host reaches into the client (a reply, a timer, a connection
 * event, the start itself) is a delivery that passes the gate, so a paused
 * client gets it late, like a process stopped by a GC pause. A broken limit is
 * final (limits.ts): the client is torn down as soon as control is back here.
 */
import type { QuickJSWASMModule } from 'quickjs-emscripten';
import type { HistoryInput } from '@/lib/history';
import type { Said, Words } from '@/lib/words';
import { locateSpinningLoop } from '../loop-location';
import { locateInLearnerSource, toLearnerPosition, topFramePosition } from '../transpile';
import type { ResolvedTarget, RunSpec } from '../protocol';
import type { ClientEndStatus, Diagnostic } from '../types';
import { ClientRandom } from './client-random';
import type { FencedStore } from './fenced-store';
import { Gate } from './gate';
import { DISPATCH, type DispatchKind } from './guest-names';
import { GuestRuntime, type GuestErrorInfo } from './guest-runtime';
import { GuestTimers } from './guest-timers';
import { callHost, type HostCallScope } from './host-calls';
import { ClientLimits, isOutOfMemory } from './limits';
import { LIMIT_WORDS } from './limit-words';
import type { ConnectionPlaces } from './connection-places';
import type { Pacer } from './pacer';
import { ClientRequests } from './requests';
import type { SliceMeter } from './slice-meter';
import { StoreWire } from './store-wire';

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
  /** Open learner connections, per client and for the whole run (connection-places.ts). */
  readonly connectionPlaces: ConnectionPlaces;
  emit(event: HistoryInput): void;
  diagnostic(d: Diagnostic): void;
  nextOpId(): number;
  resolve(client: number, host: string, port: number): ResolvedTarget;
  jobEnter(job: string): number;
  /** The client ended by itself (exit, error, crash, timeout). */
  clientEnded(client: GuestClient): void;
  /** The client broke a limit: the run ends. */
  limitBroken(client: GuestClient, message: Said): void;
}

export class GuestClient {
  private vm: GuestRuntime | null = null;
  private ended: ClientEndStatus | null = null;
  private endError: string | undefined;
  /** `endError` as data when it is the lab's own sentence (a limit), not the program's error. */
  private endErrorWords: Words | undefined;
  private wallTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the client's wall clock runs out (performance.now()); moved on by the time it stood at a breakpoint. */
  private wallDeadline = 0;
  /** Since when the client stands frozen at a breakpoint (performance.now()); null while it runs. */
  private heldSince: number | null = null;
  /** ms it stood frozen at earlier breakpoints. */
  private frozenMs = 0;
  /**
   * The fault's pause the client is in: by hand (until Resume), or timed — ending at `endsAt` (performance.now())
   * while the client runs, or with `leftMs` to go while it stands frozen, since a pause is the client's own time
   * and the breakpoint stops that too. Null: not paused by a fault.
   */
  private faultPause: { byHand: true } | { byHand: false; endsAt: number | null; leftMs: number } | null = null;
  private started = false;
  /** Set while inside learner code when the client must end (uncaught error); applied on the way out. */
  private pendingEnd: { status: ClientEndStatus; error?: string | Said } | null = null;
  private skewMs = 0;
  private readonly gate: Gate;
  private readonly limits: ClientLimits;
  private readonly timers: GuestTimers;
  private readonly requests: ClientRequests;
  private readonly storeWire: StoreWire;
  private readonly hostScope: HostCallScope;
  /** It broke a limit of its own (store calls in flight): it ends and the run goes on. */
  private endedAlone = false;
  /** The stack of the error QuickJS threw when a limit interrupted the client, if it reached the host. */
  private interruptedStack: string | null = null;

  constructor(
    readonly id: number,
    private readonly run: RunServices,
  ) {
    const isEnded = () => this.ended !== null;
    const deliver = (work: () => void) => this.gate.pass(work);
    this.gate = new Gate(isEnded);
    this.limits = new ClientLimits(id, run.spec.limits, run.meter);
    this.timers = new GuestTimers({ now: () => this.clientNow(), deliver, fire: (timer) => this.callDispatch(DISPATCH.timer, timer, '') });
    const random = new ClientRandom(run.spec.seed, id);
    this.storeWire = new StoreWire({
      client: id,
      runId: run.spec.runId,
      store: run.store,
      latency: random.latency,
      maxInFlight: run.spec.limits.storeCallsInFlight,
      emit: (e) => run.emit(e),
      overLimit: (message) => this.endAlone(message),
    });
    this.requests = new ClientRequests({
      client: id,
      run,
      countCommand: () => this.limits.countCommand(),
      ended: isEnded,
      deliver,
      dispatchInbox: (json) => this.callDispatch(DISPATCH.inbox, 0, json),
      store: this.storeWire,
    });
    this.hostScope = {
      client: id,
      run,
      limits: this.limits,
      timers: this.timers,
      requests: this.requests,
      random,
      fail: (error) => this.failWith(error, 'runtime'),
    };
  }

  get status(): ClientEndStatus | null {
    return this.ended;
  }
  get isPaused(): boolean {
    return this.gate.isPaused;
  }
  /** Paused by the learner until they press Resume: a breakpoint leaves that client as it is. */
  get pausedByHand(): boolean {
    return this.faultPause?.byHand === true;
  }
  get error(): string | undefined {
    return this.endError;
  }
  get errorWords(): Words | undefined {
    return this.endErrorWords;
  }

  /** The client's wall clock: the worker's plus its skew, less the time it stood frozen at breakpoints. */
  private clientNow(): number {
    // Whole ms, as Date.now() is: the frozen time is measured on the monotonic clock, in fractions.
    return Date.now() + this.skewMs - Math.round(this.frozenFor());
  }

  /** The client's monotonic clock (performance.now()), which stands still while it is frozen too. */
  private clientPerf(): number {
    return performance.now() - this.frozenFor();
  }

  /** ms this client has stood frozen at breakpoints, the current stop included. */
  private frozenFor(): number {
    return this.frozenMs + (this.heldSince === null ? 0 : performance.now() - this.heldSince);
  }

  private emit(event: HistoryInput): void {
    this.run.emit(event);
  }

  // ---- lifecycle -------------------------------------------------------------

  start(): void {
    if (this.ended || this.started) return;
    this.started = true;
    const { wallClockMs } = this.run.spec.limits;
    this.emit({ type: 'client', client: this.id, event: 'start', runId: this.run.spec.runId });
    this.wallDeadline = performance.now() + wallClockMs;
    this.armWallClock();
    this.gate.pass(() => this.boot());
  }

  private armWallClock(): void {
    if (this.wallTimer) clearTimeout(this.wallTimer);
    const { wallClockMs } = this.run.spec.limits;
    this.wallTimer = setTimeout(() => this.end('timeout', LIMIT_WORDS.clientWallClock(this.id, wallClockMs)), Math.max(0, this.wallDeadline - performance.now()));
  }

  /**
   * Frozen at a breakpoint, as a whole machine suspended: its code, its clocks and its wall-clock limit all
   * stand still, while the nodes' clocks go on. Thawed, it carries on as if no time had passed — a lock it
   * held still seems valid to it — and the learner's thinking time is not the program's.
   * (The pool bounds how long a run may stand at a breakpoint.)
   */
  freeze(on: boolean): void {
    if (this.ended) return;
    if (on) {
      if (this.heldSince !== null) return;
      this.heldSince = performance.now();
      // A timed pause stops counting with the client's clocks: what is left of it goes on after the thaw.
      if (this.faultPause && !this.faultPause.byHand && this.faultPause.endsAt !== null)
        this.faultPause = { byHand: false, endsAt: null, leftMs: Math.max(0, this.faultPause.endsAt - this.heldSince) };
      if (this.wallTimer) clearTimeout(this.wallTimer);
      this.wallTimer = null;
      this.stopGate(undefined, true);
      return;
    }
    if (this.heldSince === null) return;
    const stood = performance.now() - this.heldSince;
    this.frozenMs += stood;
    this.heldSince = null;
    this.wallDeadline += stood;
    if (this.started) this.armWallClock();
    this.timers.rearm();
    const pause = this.faultPause;
    if (pause && !pause.byHand && pause.leftMs > 0) {
      // Thawed into the rest of its pause: the stop ends on the timeline, the pause goes on, nothing is delivered.
      this.gate.open();
      this.emit({ type: 'client', client: this.id, event: 'resume', runId: this.run.spec.runId, breakpoint: true });
      this.pause(pause.leftMs);
      return;
    }
    this.faultPause = null;
    this.openGate(true);
  }

  private boot(): void {
    const { limits, fileName } = this.run.spec;
    const vm = new GuestRuntime({
      quickjs: this.run.quickjs,
      memoryBytes: limits.memoryBytes,
      stackBytes: limits.stackBytes,
      fileName,
      interrupt: () => this.limits.shouldInterrupt(),
      host: { call: (op, payload) => this.hostCall(op, payload), now: () => this.clientNow(), perf: () => this.clientPerf() },
      thrown: (error) => this.onGuestThrow(error),
    });
    this.vm = vm;
    this.limits.beginBoot();
    this.enter((vm) => vm.loadGuest(this.run.guestSources));
    this.limits.endBoot();
    if (!vm.hasMain) return;
    if (this.ended) {
      vm.dropMain();
      return;
    }
    this.enter((vm) => vm.runProgram(this.run.script, (error) => this.failWith(error, 'syntax')));
  }

  /** Ends the client; safe from anywhere except inside learner code (see `enter`). */
  end(status: ClientEndStatus, error?: string | Said): void {
    if (this.ended) return;
    if (this.limits.inside) {
      this.pendingEnd ??= error === undefined ? { status } : { status, error };
      return;
    }
    this.ended = status;
    this.endError = typeof error === 'object' ? error.message : error;
    this.endErrorWords = typeof error === 'object' ? error.words : undefined;
    if (this.wallTimer) clearTimeout(this.wallTimer);
    this.gate.close();
    this.timers.clearAll();
    const reason = status === 'crashed' ? 'client crashed' : status === 'exited' ? 'client exited' : `client ended (${status})`;
    this.requests.closeAll(reason);
    this.vm?.dispose();
    this.vm = null;
    const runId = this.run.spec.runId;
    if (status === 'crashed') this.emit({ type: 'client', client: this.id, event: 'crash', runId });
    else if (status === 'error' || status === 'limit' || status === 'timeout') {
      const words = this.endErrorWords;
      this.emit({ type: 'client', client: this.id, event: 'error', runId, detail: this.endError ?? status, ...(words ? { detailWords: words } : {}) });
    } else this.emit({ type: 'client', client: this.id, event: 'exit', runId, detail: status });
    // A limit of the run's ends every client and the run itself (limitBroken); one of this client's own ends only it.
    const runEndsToo = (status === 'limit' && !this.endedAlone) || status === 'stopped' || status === 'killed';
    if (!runEndsToo) this.run.clientEnded(this);
  }

  /** The run ended: the store calls still on the wire never arrive (nothing may be recorded after the end). */
  cutStore(): void {
    this.storeWire.cut();
  }

  /** A limit that is this client's alone: a diagnostic, and only this client ends (now, or on leaving learner code). */
  private endAlone(message: Said): void {
    if (this.ended || this.endedAlone) return;
    this.endedAlone = true;
    this.run.diagnostic({ client: this.id, severity: 'error', kind: 'limit', message: message.message, words: message.words, line: 1, column: 1 });
    this.end('limit', message);
  }

  // ---- faults from outside: pause, resume, clock skew ---------------------------

  pause(ms?: number): void {
    if (this.ended) return;
    // A timed pause that comes while the client stands frozen starts counting when it is thawed.
    this.faultPause = ms === undefined ? { byHand: true } : { byHand: false, endsAt: this.heldSince === null ? performance.now() + ms : null, leftMs: ms };
    this.stopGate(ms, false);
  }

  resume(): void {
    // Resume ends any pause, by hand or timed; and lets go a client frozen at a breakpoint, clocks and all.
    this.faultPause = null;
    if (this.heldSince !== null) return this.freeze(false);
    this.openGate(false);
  }

  /** Closes the gate: a fault's pause, or (`atBreakpoint`) the freeze, which the history tells apart for the timeline. */
  private stopGate(ms: number | undefined, atBreakpoint: boolean): void {
    if (this.ended) return;
    const runId = this.run.spec.runId;
    // A timed pause that ends while the client stands frozen at a breakpoint leaves it frozen: Resume lets it go.
    this.gate.pause(ms, () => {
      if (this.heldSince === null) this.resume();
    });
    this.emit({
      type: 'client',
      client: this.id,
      event: 'pause',
      runId,
      ...(ms !== undefined ? { durationMs: ms } : {}),
      ...(atBreakpoint ? { breakpoint: true as const } : {}),
    });
  }

  /** Opens the gate; `fromBreakpoint`: the thaw that ends a stop at a breakpoint (and any pause under it). */
  private openGate(fromBreakpoint: boolean): void {
    if (this.ended || !this.gate.isPaused) return;
    this.gate.open();
    this.emit({ type: 'client', client: this.id, event: 'resume', runId: this.run.spec.runId, ...(fromBreakpoint ? { breakpoint: true as const } : {}) });
    this.gate.release();
    this.checkIdle();
  }

  setSkew(skewMs: number): void {
    if (this.ended) return;
    this.skewMs = skewMs;
    this.emit({ type: 'client', client: this.id, event: 'skew', runId: this.run.spec.runId, durationMs: skewMs });
    this.timers.rearm();
  }

  // ---- entering learner code ---------------------------------------------------

  /** One CPU slice: `work`, then the promise jobs it queued, then the requests it left in the outbox. */
  private enter(work: (vm: GuestRuntime) => void): void {
    const vm = this.vm;
    if (this.ended || !vm) return;
    this.limits.beginSlice();
    try {
      work(vm);
      vm.drainJobs(() => !this.limits.trip && !this.pendingEnd);
      if (this.requests.outboxWaiting) this.requests.takeOutbox(() => (this.limits.trip || this.pendingEnd ? null : vm.takeOutbox()));
    } catch (error) {
      // A host-side failure while running the client: end this client, keep the worker.
      this.pendingEnd ??= { status: 'error', error: LIMIT_WORDS.internalError(String(error)) };
    } finally {
      this.limits.endSlice();
    }
    const trip = this.limits.trip;
    if (trip) {
      this.run.limitBroken(this, trip);
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

  private callDispatch(kind: DispatchKind, id: number, json: string): void {
    this.enter((vm) => vm.dispatch(kind, id, json));
  }

  /** Synchronous calls from the guest modules (host-calls.ts); Redis requests go on through requests.ts. */
  private hostCall(op: string, payload: unknown): unknown {
    // Jobs run in batches: once the client is ending (an uncaught error), the rest of the batch may
    // still compute but can no longer act, as if the process were already gone.
    if (this.pendingEnd) throw new Error('this client has ended');
    return callHost(this.hostScope, op, payload);
  }

  /** Like Node when the event loop is empty: nothing can wake the program any more. */
  private checkIdle(): void {
    if (this.ended || !this.started || this.gate.isPaused || this.limits.inside || this.limits.isBooting) return;
    if (this.gate.waiting > 0 || this.requests.keepAlive() || this.timers.keepAlive()) return;
    this.end('exited');
  }

  // ---- errors ------------------------------------------------------------------

  /**
   * Where the client was when a limit stopped it, in the learner's lines: for a slice that never
   * yielded, the loop it spun in (loop-location.ts says why QuickJS's own position is not enough).
   */
  limitLocation(): { line: number; column: number } | null {
    const { fileName } = this.run.spec;
    const stack = this.interruptedStack ?? this.vm?.topLevelRejection()?.stack ?? undefined;
    // A spent budget (console, commands, CPU over time) is wherever the learner's code last spent it.
    if (!this.limits.spun) return locateInLearnerSource(stack, fileName, this.run.headLength);
    const where = locateSpinningLoop(this.run.script, topFramePosition(stack, fileName));
    return where ? toLearnerPosition(where, this.run.headLength) : null;
  }

  /** An error that reached the host after a limit tripped: only its position is of use (the limit's diagnostic says what happened). */
  private afterTrip(info: GuestErrorInfo): void {
    this.interruptedStack ??= info.stack;
  }

  private onGuestThrow(info: GuestErrorInfo): void {
    if (this.limits.trip) {
      this.afterTrip(info);
      return;
    }
    if (isOutOfMemory(info)) {
      this.limits.outOfMemory();
      return;
    }
    this.failWith(info, 'runtime');
  }

  /** The program failed: a diagnostic at the learner's line, and the client ends with the error. */
  private failWith(info: GuestErrorInfo, kind: 'syntax' | 'runtime'): void {
    if (this.limits.trip) {
      this.afterTrip(info);
      return;
    }
    if (isOutOfMemory(info)) {
      this.limits.outOfMemory();
      return;
    }
    const text = info.message.startsWith('Uncaught') ? info.message : `${info.name}: ${info.message}`;
    const where = locateInLearnerSource(info.stack, this.run.spec.fileName, this.run.headLength);
    // A command the lab's state failed (a node down, a link cut): the server says what happened in the learner's terms.
    const failure = kind === 'runtime' ? this.requests.failureFor(info.message) : undefined;
    this.run.diagnostic({
      client: this.id,
      severity: 'error',
      kind,
      message: text,
      line: where?.line ?? 1,
      column: where?.column ?? 1,
      ...(failure ? { failure } : {}),
    });
    this.end('error', where ? `${text} (line ${where.line})` : text);
  }
}
