/**
 * The sandbox pool, on the main thread. It never runs learner code: it hands
 * each run to a fresh worker thread in one of the sandbox host processes
 * (host/: a few long-lived processes of their own, niced and unprivileged),
 * relays the run's messages to and from it, and forwards history events. A
 * worker serves one run and is then thrown away; warm spares, booted in the
 * hosts, hide the boot. The stuck-worker watchdog runs in each host, next to
 * its threads; the wall clock of a run is kept here.
 */
import { say } from '@/lib/checker/said';
import type { Said } from '@/lib/words';
import type { Trigger } from '@/lib/scenario';
import type { MainToWorker, WorkerToMain } from './protocol';
import {
  DEFAULT_LIMITS,
  type ClientOutcome,
  type RunHandle,
  type RunOutcome,
  type RunStatus,
  type RunThread,
  type SandboxLimits,
  type SandboxPool,
  type SandboxPoolOptions,
  type StartRunOptions,
} from './types';
import { availableParallelism } from 'node:os';
import { LabOperationError } from '@/lib/result';
import { drawSeed } from '@/lib/random';
import { refuse } from '../ops/refusals';
import { refusal } from '@/lib/refusal-words';
import { HOST_DESCRIPTOR_RESERVE, SandboxHost, type HostWorker, type WorkerLoss } from './host/sandbox-host';
import { chooseSpare } from './spare-choice';
import { openFileLimit } from '../cluster/link-host/lab-sockets';
import { log } from '../ops/log';

/** Extra time past the wall-clock limit (and the last staggered start) before a silent worker is killed. */
const WALL_GRACE_MS = 5_000;
/** The longest a run may stand at a breakpoint (its wall clock held) before it is stopped: a slot of the server is not held forever. */
export const BREAKPOINT_HOLD_MS = 120_000;
/** How often the pool checks the runs' wall clocks (the stuck-worker watchdog runs in the hosts). */
const WALL_CHECK_MS = 100;
const MAX_CODE_CHARS = 200_000;
const REFILL_DELAY_MS = 1_500;
/** At most this many workers warm beyond `warmWorkers`, whatever the checks going on ask (each is a thread and its heap). */
const MAX_EXTRA_WARM = 4;
/** A worker's own JS heap (old generation); LabRuns reserves this plus each client's QuickJS heap per run. */
export const WORKER_HEAP_MB = 96;

/**
 * Sandbox host processes (LOCKLAB_SANDBOX_HOSTS): one per core, from 2 (a host that crashes then ends only
 * its share of the runs) to 8 (each is a process with its own V8 threads and heap).
 */
export function sandboxHostCount(cores: number): number {
  const raw = process.env.LOCKLAB_SANDBOX_HOSTS;
  if (raw === undefined || raw === '') return Math.min(8, Math.max(2, cores));
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 64) throw new Error(`LOCKLAB_SANDBOX_HOSTS must be an integer from 1 to 64 (got "${raw}")`);
  return value;
}

/** What a run tells the learner when its worker stopped serving it. */
function lossWords(loss: WorkerLoss): Said {
  switch (loss.kind) {
    case 'stuck':
      return loss.reason;
    case 'exit':
      return say('runNotes.workerExited');
    case 'host-lost':
      return say('runNotes.hostLost', { how: loss.how });
    case 'error': {
      if (loss.code !== 'ERR_WORKER_OUT_OF_MEMORY') return say('runNotes.workerFailed', { error: loss.message });
      const said = say('runNotes.workerMemory', { mb: String(WORKER_HEAP_MB) });
      refuse('worker-memory', { detail: { heapMb: WORKER_HEAP_MB } }, said.message);
      return said;
    }
  }
}

class RunController implements RunHandle {
  readonly done: Promise<RunOutcome>;
  private resolveDone!: (o: RunOutcome) => void;
  private finished = false;
  private readonly startedAt = performance.now();
  private deadlineAt: number;
  /** Since when the run stands at a breakpoint (performance.now()); null while it goes. */
  private heldSince: number | null = null;
  readonly seed: number;

  /** Its worker is still booting: the run's first line waits for it. */
  get waitsForBoot(): boolean {
    return !this.slot.isBooted && this.slot.ended === null;
  }

  /** Settles when its worker has booted (or was lost). */
  get booted(): Promise<void> {
    return this.slot.ready;
  }

  constructor(
    private readonly slot: HostWorker,
    private readonly opts: StartRunOptions,
    private readonly limits: SandboxLimits,
    private readonly onFinished: (run: RunController) => void,
    commandsPerSecondShare: number,
    private readonly breakpointHoldMs: number,
  ) {
    this.done = new Promise((r) => (this.resolveDone = r));
    this.seed = opts.seed ?? drawSeed();
    const lastStart = Math.max(0, ...(opts.startDelaysMs ?? []));
    this.deadlineAt = this.startedAt + limits.wallClockMs + lastStart + WALL_GRACE_MS;
    slot.attach({ message: (m) => this.onMessage(m), lost: (loss) => this.kill(lossWords(loss)) });
    // A spare that was lost before this run took it (its host died, its boot failed): said at once, instead
    // of waiting out the wall clock for a dead thread.
    if (slot.ended) {
      const loss = slot.ended;
      queueMicrotask(() => this.kill(lossWords(loss)));
      return;
    }
    // Sent at once: the host queues it for the worker until it has booted.
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
        breakpoint: opts.breakpoint ?? null,
        seed: this.seed,
      },
    });
  }

  thread(): RunThread | null {
    const { tid, pid } = this.slot;
    return tid !== null && tid > 0 && pid > 0 ? { pid, tid } : null;
  }

  /** The host process this run's worker lives in. */
  get host(): SandboxHost {
    return this.slot.host;
  }

  get runId(): string {
    return this.opts.runId;
  }

  private send(m: MainToWorker): void {
    if (!this.finished) this.slot.post(m);
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
      case 'held':
        this.hold(m.on);
        break;
      case 'ready':
        break;
    }
  }

  /** At a breakpoint the wall clock stops (as each client's does in the worker), within BREAKPOINT_HOLD_MS. */
  private hold(on: boolean): void {
    const now = performance.now();
    if (on) this.heldSince ??= now;
    else if (this.heldSince !== null) {
      this.deadlineAt += now - this.heldSince;
      this.heldSince = null;
    }
  }

  /** Called by the pool's wall-clock check. */
  check(now: number): void {
    if (this.finished) return;
    if (this.heldSince !== null) {
      if (now - this.heldSince > this.breakpointHoldMs) this.kill(say('runNotes.breakpointTooLong', { seconds: String(Math.round(this.breakpointHoldMs / 1000)) }));
      return;
    }
    if (now > this.deadlineAt) this.kill(say('runNotes.wallClockKilled', { ms: String(this.limits.wallClockMs) }));
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
    this.slot.terminate();
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
  setBreakpoint(when: Trigger | null): void {
    this.send({ type: 'break', when });
  }
  continueFromBreakpoint(step: boolean): void {
    this.send({ type: 'continue', step });
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
  const hostCount = options.hosts ?? sandboxHostCount(availableParallelism());
  let spares: HostWorker[] = [];
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
  /**
   * Spares boot one at a time, and none while a run waits for its own worker to boot. A boot instantiates and warms
   * QuickJS, a CPU-bound second or more on this machine's two cores: when Explore took three workers and the refill
   * booted three more beside them, a run's first line came 5 s after its start instead of ~1 s. A run that needs a
   * worker never waits for this rule (it takes a spare, booted or not, or boots its own); only the spares do.
   */
  const refill = () => {
    spares = spares.filter((s) => !s.ended);
    if (closed || spares.length >= target()) return;
    if (spares.some((s) => !s.isBooted) || [...runs].some((r) => r.waitsForBoot)) return;
    const worker = leastLoaded().spawnWorker();
    spares.push(worker);
    // The next one once this one has booted (a failed boot does not retry by itself: the next run or host restart does).
    void worker.ready.then(() => {
      if (worker.isBooted) refill();
    });
  };
  const hosts: SandboxHost[] = [];
  for (let i = 0; i < hostCount; i++) {
    hosts.push(
      new SandboxHost(i, hostCount, { workerHeapMb: WORKER_HEAP_MB, descriptorLimit: options.hostDescriptors ?? null }, () => {
        // A host died and was started again: its spares went with it.
        if (!closed) refill();
      }),
    );
  }
  /** The host running fewest runs, then holding fewest workers: a new worker goes there. */
  function leastLoaded(): SandboxHost {
    let best = hosts[0]!;
    for (const host of hosts) if (host.running < best.running || (host.running === best.running && host.load < best.load)) best = host;
    return best;
  }
  /** The spare a new run takes — a booted one first (spare-choice.ts) — or a new worker in the host running fewest runs. */
  function takeWorker(): HostWorker {
    spares = spares.filter((s) => !s.ended);
    const host = leastLoaded();
    const spare = chooseSpare(spares, (s) => ({ booted: s.isBooted, hostRunning: s.host.running }), host.running);
    if (spare) {
      spares.splice(spares.indexOf(spare), 1);
      return spare;
    }
    return host.spawnWorker();
  }
  refill();
  // Each run holds at most maxConnectionsPerRun sockets in its host: with every run of the server in one host,
  // they should still fit below its ceiling, so one learner's connections never leave another's run without.
  const hostCeiling = Math.min(openFileLimit(), options.hostDescriptors ?? Infinity) - HOST_DESCRIPTOR_RESERVE;
  if (Number.isFinite(maxRuns) && maxRuns * baseLimits.maxConnectionsPerRun > hostCeiling) {
    log.warn(
      { event: 'sandbox-host-descriptors', maxRuns, perRun: baseLimits.maxConnectionsPerRun, hostCeiling },
      'runs at their connection caps could pass a sandbox host\'s descriptors: past it a connection is refused in words',
    );
  }

  const wallClock = setInterval(() => {
    const now = performance.now();
    for (const run of runs) run.check(now);
  }, WALL_CHECK_MS);
  /**
   * The hosts' channels never keep the process alive (a server must be able to exit), so the wall clock does while
   * there is work: a run going, or a caller waiting for the hosts. Without it a script with nothing else on its loop
   * (`npm run fidelity` warming its workers) exited with "unsettled top-level await" (code 13).
   */
  let awaited = 0;
  const keepAliveForWork = () => {
    if (runs.size > 0 || awaited > 0) wallClock.ref();
    else wallClock.unref();
  };
  keepAliveForWork();
  const whileAwaited = async (work: Promise<unknown>): Promise<void> => {
    awaited += 1;
    keepAliveForWork();
    try {
      await work;
    } finally {
      awaited -= 1;
      keepAliveForWork();
    }
  };

  return {
    get activeRuns() {
      return runs.size;
    },
    get workers() {
      return runs.size + spares.length;
    },
    get hostPids() {
      return hosts.map((h) => h.pid).filter((pid) => pid > 0);
    },
    limits: Object.freeze({ ...baseLimits }),
    async start(): Promise<void> {
      await whileAwaited(Promise.all(hosts.map((h) => h.start())));
    },
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
      const worker = takeWorker();
      const run = new RunController(
        worker,
        opts,
        limits,
        (r) => {
          runs.delete(r);
          rebalance();
          keepAliveForWork();
        },
        share(runs.size + 1),
        options.breakpointHoldMs ?? BREAKPOINT_HOLD_MS,
      );
      runs.add(run);
      rebalance();
      keepAliveForWork();
      // Booting a worker takes the cores for a moment; let the new run get going first (after its own worker's boot).
      const refillLater = () =>
        setTimeout(() => {
          if (!closed) refill();
        }, REFILL_DELAY_MS).unref();
      if (run.waitsForBoot) void worker.ready.then(refillLater);
      else refillLater();
      return run;
    },
    async whenWarm(): Promise<void> {
      // Spares boot one after another, and wait for a run's own boot: wait until every one the pool keeps has booted.
      const warmed = async () => {
        for (;;) {
          spares = spares.filter((s) => !s.ended);
          if (closed) return;
          const booting = [...spares.filter((s) => !s.isBooted).map((s) => s.ready), ...[...runs].filter((r) => r.waitsForBoot).map((r) => r.booted)];
          if (booting.length > 0) {
            await Promise.race(booting);
            continue;
          }
          if (spares.length >= target()) return;
          // Nothing booting and still short (a run's boot had held the refill back): start the next one now.
          refill();
          if (!spares.some((s) => !s.isBooted)) return;
        }
      };
      await whileAwaited(warmed());
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
        for (const spare of spares.splice(target())) spare.terminate();
      };
    },
    async close(): Promise<void> {
      closed = true;
      clearInterval(wallClock);
      for (const run of [...runs]) run.terminate();
      for (const spare of spares.splice(0)) spare.terminate();
      for (const host of hosts) host.stop();
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
