/**
 * The public contract of the sandbox: what a caller (the lab engine, the
 * realtime layer, tests) hands to `pool.startRun` and what it gets back.
 * Everything here is plain data or callbacks on the main thread; the learner's
 * code itself never leaves its worker thread, in a sandbox host process.
 */
import type { Trigger } from '@/lib/scenario';
import type { ArmedFault } from './worker/armed-faults';
import type { HistoryInput } from '@/lib/history';
import type { ClientEndStatus, ClientOutcome, Diagnostic, RunOutcome, RunStatus } from '@/lib/run';

// What a run reports travels to the browser too, so its shapes live in lib/run.ts.
export type { ClientEndStatus, ClientOutcome, Diagnostic, RunOutcome, RunStatus };

/** Per-client limits. Each one has a default (DEFAULT_LIMITS) a lesson can override. */
export interface SandboxLimits {
  /** Longest stretch of synchronous learner code, in CPU ms of its worker thread, before the client is stopped (QuickJS interrupt). */
  cpuSliceMs: number;
  /** Total CPU time one client may use over its whole life. */
  cpuTotalMs: number;
  /** Wall-clock life of a client, from its start. */
  wallClockMs: number;
  /** QuickJS heap per client. */
  memoryBytes: number;
  /** QuickJS stack per client; more than 256 KB lets deep recursion crash the host (DESIGN.md). */
  stackBytes: number;
  /** Console output per client (UTF-8 bytes). */
  consoleBytes: number;
  /** Redis commands per client per second (sliding one-second window). */
  commandsPerSecond: number;
  /**
   * `lab.store` calls one client may have waiting for an answer at once; past it only that client
   * ends. Each holds a timer in the worker, so a loop that never awaits must not pile up thousands.
   */
  storeCallsInFlight: number;
  /** Clients per run. */
  maxClients: number;
  /** Default Redis command timeout when the learner's options name none, so a black-holed link fails instead of hanging. */
  commandTimeoutMs: number;
  /** Default Redis connect timeout when the learner's options name none. */
  connectTimeoutMs: number;
  /**
   * Most a learner's own `connectTimeout` may be: each connection waiting to connect holds a socket (a
   * file descriptor of the server's) that long, and thousands of them on a black-holed node once took
   * every descriptor the server had. Above it, the connection uses this, and the run's console says so.
   */
  maxConnectTimeoutMs: number;
  /** Most a learner's own `commandTimeout` may be, for the same reason: a command waiting holds its connection. */
  maxCommandTimeoutMs: number;
  /**
   * Learner connections one client may have open at once (each is a socket of the server's through the
   * client's link). Past it, `new Redis()` fails as an OS refuses a socket (EMFILE); a closed one frees its place.
   */
  maxConnectionsPerClient: number;
  /** Learner connections all the clients of one run may have open at once. */
  maxConnectionsPerRun: number;
  /**
   * Grace (CPU ms) after `cpuSliceMs` before the main thread gives up on the worker and
   * terminates it (a memory bomb can block QuickJS where the interrupt handler never runs).
   */
  hardKillGraceMs: number;
}

export const DEFAULT_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  cpuSliceMs: 200,
  cpuTotalMs: 10_000,
  wallClockMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 256 * 1024,
  consoleBytes: 64 * 1024,
  commandsPerSecond: 2_000,
  storeCallsInFlight: 100,
  maxClients: 16,
  commandTimeoutMs: 1_000,
  connectTimeoutMs: 1_000,
  maxConnectTimeoutMs: 10_000,
  maxCommandTimeoutMs: 10_000,
  // A learner needs a handful: Redlock over five nodes is five, plus a counter or a duplicate().
  maxConnectionsPerClient: 16,
  maxConnectionsPerRun: 128,
  hardKillGraceMs: 400,
});

/** Where a learner's (host, port) goes: a lab node id, or null for "no such host". */

/** Where a client's link to a node listens on loopback, or null if that client has no link to it. */
export type LinkPort = (client: number, node: number) => number | null;

/** The lab's ACL user the learner's connections authenticate as (whatever the learner's code says). */
export interface RedisCredentials {
  username: string;
  password: string;
}

export interface StartRunOptions {
  runId: string;
  /** TypeScript or JavaScript, one file, as typed in the editor. */
  code: string;
  /** How many clients run the program (1..limits.maxClients). Clients are numbered from 1. */
  clients: number;
  /** Optional per-client start delays in ms (index 0 = client 1); missing entries start at once. */
  startDelaysMs?: number[];
  /** Scenario steps on the clients that wait for an event of the run; the worker carries them out (worker/armed-faults.ts). */
  armed?: ArmedFault[];
  /** The learner's breakpoint: the run stops when it happens (worker/breakpoint.ts). */
  breakpoint?: Trigger | null;
  /** Node ids the lab has (e.g. [1, 2, 3, 4, 5]); used by the default resolver. */
  nodes: number[];
  linkPort: LinkPort;
  credentials: RedisCredentials;
  limits?: Partial<SandboxLimits>;
  /** The lab clock: `originEpochMs` = performance.timeOrigin + (performance.now() at the lab's start). */
  clock: { originEpochMs: number };
  /** History events, stamped with `t` on the lab clock and `runId`; the caller assigns seq. */
  onEvent: (event: HistoryInput) => void;
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** First opId this run uses for its Redis events (so ids stay unique across a lab's runs). Default 1. */
  opIdBase?: number;
  /** Label used in error messages and stacks; default "program.ts". */
  fileName?: string;
  /**
   * The run's seed (0 … 2³²−1): the same seed gives every client the same Math.random(), crypto
   * values and store latencies again. Drawn when absent; the handle says which (RunHandle.seed).
   */
  seed?: number;
}

/** A thread of another process: /proc/<pid>/task/<tid>. */
export interface RunThread {
  pid: number;
  tid: number;
}

export interface RunHandle {
  readonly runId: string;
  /** The run's seed, as given or drawn: pass it to startRun again to replay the clients' randomness. */
  readonly seed: number;
  /** Close the client's gate; with `ms`, reopen it after that long. */
  pauseClient(client: number, ms?: number): void;
  resumeClient(client: number): void;
  /** Destroy the client's context and drop its connections; nothing is released. */
  crashClient(client: number): void;
  /** Set the client's clock offset (ms); its Date.now and pending timers follow. */
  setSkew(client: number, skewMs: number): void;
  stop(): void;
  /** Sets (or, with null, clears) the learner's breakpoint on the running program. */
  setBreakpoint(when: Trigger | null): void;
  /** Continues from the breakpoint the run stands at; `step`: stops again at the next answered command. */
  continueFromBreakpoint(step: boolean): void;
  /**
   * The worker thread running the clients, once it has booted (null before, or where there is none): its
   * sandbox host's pid and its Linux thread id there. It runs below the server's priority (ops/priority.ts),
   * so its waits for a CPU belong to what disturbed a run (runs/cpu-wait.ts), with those of the nodes and
   * the link process.
   */
  thread(): RunThread | null;
  readonly done: Promise<RunOutcome>;
}

export interface SandboxPoolOptions {
  /** The longest a run may stand at a breakpoint before it is stopped (default BREAKPOINT_HOLD_MS, 2 minutes). */
  breakpointHoldMs?: number;
  /** Workers kept started and idle (in the hosts) so a run starts without the ~300 ms worker boot. Default 1. */
  warmWorkers?: number;
  /** Concurrent runs; startRun beyond it is refused. Default 32. */
  maxRuns?: number;
  /** Sandbox host processes the workers live in (LOCKLAB_SANDBOX_HOSTS; default one per core, 2 to 8). */
  hosts?: number;
  /**
   * The most file descriptors each host may hold (LOCKLAB_SANDBOX_HOST_FDS); its learners' connections stop
   * 64 short of it, refused in words. Default: the host's RLIMIT_NOFILE.
   */
  hostDescriptors?: number;
  /** Defaults for every run (each run may override). */
  limits?: Partial<SandboxLimits>;
  /**
   * Redis commands per second all runs together may send, shared equally among the runs going
   * (LOCKLAB_COMMAND_RATE). Unlimited if absent.
   */
  commandRate?: number;
}

export interface SandboxPool {
  startRun(options: StartRunOptions): RunHandle;
  /** Runs in progress. */
  readonly activeRuns: number;
  /** Worker threads alive: one per running program plus the warm spares. */
  readonly workers: number;
  /** The sandbox host processes running now (for tests and operators). */
  readonly hostPids: number[];
  /**
   * Starts every sandbox host and waits until each has booted; rejects with a `SandboxHostStartError`
   * (one sentence) when one cannot run here. The server calls it at its start; without it hosts start
   * with the first worker they are asked for.
   */
  start(): Promise<void>;
  /** The server's limits for every run: a run may ask for lower ones, never higher. */
  readonly limits: Readonly<SandboxLimits>;
  /** Resolves when the spare workers have booted (call it at server start so the first run is quick). */
  whenWarm(): Promise<void>;
  /**
   * Keeps `extra` more workers warm until the returned function is called: a check playing runs in
   * several labs at once would otherwise boot a worker for most of its runs. Bounded pool-wide.
   */
  keepWarm(extra: number): () => void;
  /** Stops every run and terminates all workers. */
  close(): Promise<void>;
}
