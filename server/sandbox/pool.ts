/**
 * The sandbox pool, on the main thread. It never runs learner code: it hands
 * each run to a fresh worker thread, answers the worker's host look-ups,
 * forwards history events, and watches every worker through a shared memory
 * slot so a worker stuck inside learner code (where QuickJS's interrupt
 * handler cannot fire, e.g. one huge allocation) is terminated from here.
 * A worker serves one run and is then thrown away; warm spares hide the boot.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { BUSY, BUSY_SLOTS, type MainToWorker, type WorkerToMain } from './protocol';
import { stuckInLearnerCode } from './watchdog';
import { guestSources } from './guest-sources';
import { workerSource } from './worker-source';
import { say } from '@/lib/checker/said';
import type { Said } from '@/lib/words';
import {
  DEFAULT_LIMITS,
  type ClientOutcome,
  type RunHandle,
  type RunOutcome,
  type RunStatus,
  type SandboxLimits,
  type SandboxPool,
  type SandboxPoolOptions,
  type StartRunOptions,
} from './types';
import { LabOperationError } from '@/lib/result';
import { drawSeed } from '@/lib/random';
import { refuse } from '../ops/refusals';
import { refusal } from '@/lib/refusal-words';
import { serverDescriptors } from '../ops/descriptors';

/** How often the main thread checks the workers; cheap (one shared-memory read per run, /proc only for a long slice). */
const WATCHDOG_MS = 20;
/** Extra time past the wall-clock limit (and the last staggered start) before a silent worker is killed. */
const WALL_GRACE_MS = 5_000;
const MAX_CODE_CHARS = 200_000;
const REFILL_DELAY_MS = 1_500;
/** At most this many workers warm beyond `warmWorkers`, whatever the checks going on ask (each is a thread and its heap). */
const MAX_EXTRA_WARM = 4;
/** A worker's own JS heap (old generation); LabRuns reserves this plus each client's QuickJS heap per run. */
export const WORKER_HEAP_MB = 96;

interface WorkerSlot {
  worker: Worker;
  busy: Float64Array;
  /** Resolves when the worker has loaded QuickJS and warmed up (or has ended: see `ended`). */
  ready: Promise<void>;
  /** Set if the worker ended before a run took it (a failed boot): why, for that run's error. */
  ended: { error: Error | null } | null;
}

/** QuickJS's WebAssembly, compiled once per process (off the main thread) and shared with every worker. */
let compiledQuickJS: Promise<WebAssembly.Module> | null = null;
function quickJSModule(): Promise<WebAssembly.Module> {
  compiledQuickJS ??= readFile(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm')).then((bytes) =>
    WebAssembly.compile(bytes),
  );
  return compiledQuickJS;
}

function spawnWorker(wasmModule: WebAssembly.Module): WorkerSlot {
  const shared = new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * BUSY_SLOTS);
  const worker = new Worker(workerSource(), {
    eval: true,
    // `descriptors`: the web server's reserve of file descriptors, which learners' connections leave alone.
    workerData: { busy: shared, wasmModule, guestSources: guestSources(), descriptors: serverDescriptors.shared },
    // The QuickJS heaps live in WebAssembly memory (each capped per client); this bounds the worker's own JS
    // heap, where Redis replies land before they reach a client. Redis closes a connection whose reply passes
    // 16 MB, so a few such replies at once end this run (ERR_WORKER_OUT_OF_MEMORY), never the server.
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16 },
    stdout: false,
    stderr: false,
  });
  const slot: WorkerSlot = { worker, busy: new Float64Array(shared), ready: Promise.resolve(), ended: null };
  // Without a listener an 'error' event would crash the server. Before a run takes the worker, an error is
  // kept for that run to report (it is told at once, instead of waiting out its wall clock for a dead thread).
  let bootError: Error | null = null;
  worker.on('error', (error) => {
    bootError ??= error;
  });
  worker.unref();
  slot.ready = new Promise<void>((resolve) => {
    const onMessage = (m: WorkerToMain) => {
      if (m.type !== 'ready') return;
      worker.off('message', onMessage);
      resolve();
    };
    worker.on('message', onMessage);
    worker.once('exit', () => {
      slot.ended = { error: bootError };
      resolve();
    });
  });
  return slot;
}

class RunController implements RunHandle {
  readonly done: Promise<RunOutcome>;
  private resolveDone!: (o: RunOutcome) => void;
  private finished = false;
  private readonly startedAt = performance.now();
  private readonly deadlineAt: number;
  readonly seed: number;

  private slot: WorkerSlot | null = null;
  /** Messages sent before the worker exists (the first run may wait for QuickJS to compile). */
  private readonly outbox: MainToWorker[] = [];

  constructor(
    slotReady: Promise<WorkerSlot>,
    private readonly opts: StartRunOptions,
    private readonly limits: SandboxLimits,
    private readonly onFinished: (run: RunController) => void,
    commandsPerSecondShare: number,
  ) {
    this.done = new Promise((r) => (this.resolveDone = r));
    this.seed = opts.seed ?? drawSeed();
    const lastStart = Math.max(0, ...(opts.startDelaysMs ?? []));
    this.deadlineAt = this.startedAt + limits.wallClockMs + lastStart + WALL_GRACE_MS;
    slotReady.then(
      (slot) => this.attach(slot),
      (e: unknown) => this.kill(say('runNotes.sandboxNotStarted', { error: String(e) })),
    );
    this.send({
      type: 'start',
      spec: {
        runId: opts.runId,
        code: opts.code,
        fileName: opts.fileName ?? 'program.ts',
        clients: opts.clients,
        nodes: [...opts.nodes],
        linkPorts: linkPortTable(opts),
        startDelaysMs: opts.startDelaysMs ?? [],
        credentials: opts.credentials,
        limits,
        originEpochMs: opts.clock.originEpochMs,
        opIdBase: opts.opIdBase ?? 1,
        commandsPerSecondShare,
        armed: opts.armed ?? [],
        seed: this.seed,
      },
    });
  }

  threadId(): number | null {
    const tid = this.slot?.busy[BUSY.tid] ?? 0;
    return tid > 0 ? tid : null;
  }

  get runId(): string {
    return this.opts.runId;
  }

  private attach(slot: WorkerSlot): void {
    if (this.finished) {
      void slot.worker.terminate();
      return;
    }
    if (slot.ended) {
      this.kill(say('runNotes.workerFailed', { error: slot.ended.error?.message ?? 'the thread ended before the run began' }));
      return;
    }
    this.slot = slot;
    slot.worker.on('message', (m: WorkerToMain) => this.onMessage(m));
    slot.worker.on('error', (e: Error & { code?: string }) => {
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        const said = say('runNotes.workerMemory', { mb: String(WORKER_HEAP_MB) });
        refuse('worker-memory', { detail: { heapMb: WORKER_HEAP_MB } }, said.message);
        this.kill(said);
      } else this.kill(say('runNotes.workerFailed', { error: e.message }));
    });
    slot.worker.on('exit', () => this.kill(say('runNotes.workerExited')));
    for (const m of this.outbox.splice(0)) slot.worker.postMessage(m);
  }

  private send(m: MainToWorker): void {
    if (this.finished) return;
    if (this.slot) this.slot.worker.postMessage(m);
    else this.outbox.push(m);
  }

  private onMessage(m: WorkerToMain): void {
    if (this.finished) return;
    switch (m.type) {
      case 'events':
        for (const e of m.events) this.opts.onEvent(e);
        break;
      case 'diagnostic':
        this.opts.onDiagnostic?.(m.diagnostic);
        break;
      case 'done':
        this.finish(m.status, m.clients, m.error !== undefined && m.errorWords ? { message: m.error, words: m.errorWords } : m.error);
        break;
      case 'ready':
        break;
    }
  }

  /** Called by the pool's watchdog. */
  check(now: number, epochNow: number): void {
    if (this.finished) return;
    const stuck = this.slot ? stuckInLearnerCode(this.slot.busy, epochNow, this.limits.hardKillGraceMs) : null;
    if (stuck !== null) this.kill(stuck);
    else if (now > this.deadlineAt) {
      this.kill(say('runNotes.wallClockKilled', { ms: String(this.limits.wallClockMs) }));
    }
  }

  private kill(reason: Said): void {
    if (this.finished) return;
    const clients: ClientOutcome[] = [];
    for (let c = 1; c <= this.opts.clients; c++) clients.push({ client: c, status: 'killed' });
    this.opts.onEvent({ type: 'console', client: 0, level: 'error', text: reason.message, words: reason.words, runId: this.opts.runId });
    this.finish('killed', clients, reason);
  }

  private finish(status: RunStatus, clients: ClientOutcome[], error?: string | Said): void {
    if (this.finished) return;
    this.finished = true;
    if (this.slot) void this.slot.worker.terminate();
    const outcome: RunOutcome = { runId: this.opts.runId, status, clients, durationMs: performance.now() - this.startedAt };
    if (typeof error === 'string') outcome.error = error;
    else if (error !== undefined) {
      outcome.error = error.message;
      outcome.errorWords = error.words;
    }
    this.onFinished(this);
    this.resolveDone(outcome);
  }

  pauseClient(client: number, ms?: number): void {
    this.send(ms === undefined ? { type: 'pause', client } : { type: 'pause', client, ms });
  }
  resumeClient(client: number): void {
    this.send({ type: 'resume', client });
  }
  crashClient(client: number): void {
    this.send({ type: 'crash', client });
  }
  setSkew(client: number, skewMs: number): void {
    this.send({ type: 'skew', client, skewMs });
  }
  stop(): void {
    this.send({ type: 'stop' });
  }
  /** A new share of the server's command rate. */
  pace(commandsPerSecond: number): void {
    this.send({ type: 'pace', commandsPerSecond });
  }
  /** For pool.close(): no waiting on a worker that may be stuck. */
  terminate(): void {
    this.kill(say('runNotes.shutDown'));
  }
}

export function createSandboxPool(options: SandboxPoolOptions = {}): SandboxPool {
  const warm = Math.max(0, options.warmWorkers ?? 1);
  const maxRuns = options.maxRuns ?? 32;
  const baseLimits: SandboxLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const spares: Promise<WorkerSlot>[] = [];
  const spawn = () => quickJSModule().then(spawnWorker);
  const runs = new Set<RunController>();
  let closed = false;
  const commandRate = options.commandRate ?? Infinity;
  /** Each run's fair share of the server-wide command rate, whatever its client count. */
  const share = (count: number) => (Number.isFinite(commandRate) ? Math.max(1, Math.floor(commandRate / Math.max(1, count))) : Infinity);
  let lastShare = Infinity;
  const rebalance = () => {
    const next = share(runs.size);
    if (next === lastShare) return;
    lastShare = next;
    for (const run of runs) run.pace(next);
  };

  /** Extra warm workers asked for by `keepWarm` calls still held. */
  let extraWarm = 0;
  const target = () => warm + Math.min(MAX_EXTRA_WARM, extraWarm);
  const refill = () => {
    while (!closed && spares.length < target()) {
      const slot = spawn();
      slot.catch(() => undefined);
      spares.push(slot);
    }
  };
  refill();

  const watchdog = setInterval(() => {
    const now = performance.now();
    const epochNow = Date.now();
    for (const run of runs) run.check(now, epochNow);
  }, WATCHDOG_MS);
  watchdog.unref();

  return {
    get activeRuns() {
      return runs.size;
    },
    get workers() {
      return runs.size + spares.length;
    },
    limits: Object.freeze({ ...baseLimits }),
    startRun(opts: StartRunOptions): RunHandle {
      if (closed) throw new LabOperationError('internal', refusal('run.poolClosed'));
      if (runs.size >= maxRuns) throw new LabOperationError('lab-full', refusal('run.poolFull', { max: maxRuns }));
      // The pool's limits are the server's: a run may lower any of them, never raise one.
      const limits: SandboxLimits = { ...baseLimits };
      for (const [key, value] of Object.entries(opts.limits ?? {}) as [keyof SandboxLimits, number | undefined][]) {
        if (value !== undefined) limits[key] = Math.min(value, baseLimits[key]);
      }
      if (!Number.isInteger(opts.clients) || opts.clients < 1 || opts.clients > limits.maxClients) {
        throw new LabOperationError('invalid-input', refusal('run.clients', { max: limits.maxClients, n: opts.clients }));
      }
      if (opts.code.length > MAX_CODE_CHARS) {
        throw new LabOperationError('invalid-input', refusal('run.tooLong', { n: opts.code.length, max: MAX_CODE_CHARS }));
      }
      const slot = spares.shift() ?? spawn();
      const run = new RunController(
        slot,
        opts,
        limits,
        (r) => {
          runs.delete(r);
          rebalance();
        },
        share(runs.size + 1),
      );
      runs.add(run);
      rebalance();
      // Booting a worker compiles QuickJS on every core for a moment; let the new run get going first.
      setTimeout(refill, REFILL_DELAY_MS).unref();
      return run;
    },
    async whenWarm(): Promise<void> {
      await Promise.all(spares.map((s) => s.then((slot) => slot.ready)));
    },
    keepWarm(extra: number): () => void {
      const n = Math.max(0, Math.floor(extra));
      extraWarm += n;
      refill();
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        extraWarm -= n;
        // Spares beyond the target are ended: an idle server keeps only `warmWorkers`.
        for (const slot of spares.splice(target())) void slot.then((s) => s.worker.terminate(), () => 0);
      };
    },
    async close(): Promise<void> {
      closed = true;
      clearInterval(watchdog);
      for (const run of [...runs]) run.terminate();
      await Promise.all(spares.splice(0).map((s) => s.then((slot) => slot.worker.terminate(), () => 0)));
    },
  };
}

/** Every client's port to every node, as the run starts (see RunSpec.linkPorts). */
function linkPortTable(opts: StartRunOptions): Record<string, number> {
  const table: Record<string, number> = {};
  for (let client = 1; client <= opts.clients; client++) {
    for (const node of opts.nodes) {
      const port = opts.linkPort(client, node);
      if (port !== null) table[`${client}:${node}`] = port;
    }
  }
  return table;
}
