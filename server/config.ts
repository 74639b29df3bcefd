/** Server settings from the environment, read once, with the defaults the README lists. */
import { DEFAULT_CPU_PRESSURE_LIMIT, defaultCpuFloorRuns, defaultMaxLabs, defaultMaxRuns, defaultRunMemoryMb, defaultRunMemoryPerBrowserMb, defaultRunsPerBrowser } from './capacity';
import { DEFAULT_LIMITS } from './sandbox/types';
import { sandboxHostCount, WORKER_HEAP_MB } from './sandbox/pool';
import { availableParallelism } from 'node:os';
import { defaultRunRoot } from './cluster/run-dir';
import { DEFAULT_HISTORY_BUDGET, type HistoryBudget } from './lab/history-log';
import { defaultDescriptorReserve } from './ops/descriptors';
import { defaultDataDir } from './store/data-dir';
import type { StoreConfig } from './store/store';
import type { SharedRunBounds } from './store/shared-runs';
import { MAX_RUN_FILE_BYTES } from '@/lib/run-file-format';

export interface ServerConfig {
  port: number;
  host: string;
  dev: boolean;
  /** Serve the Next.js pages (off for engine-only tests and benchmarks). */
  web: boolean;
  /** Run learner code (off only for engine benchmarks that do not need worker threads). */
  sandbox: boolean;
  maxLabs: number;
  labIdleMs: number;
  /** Default-topology labs kept started in reserve (LOCKLAB_WARM_LABS). */
  warmLabs: number;
  runRoot: string;
  /** Extra browser origins allowed to open a socket (comma-separated in LOCKLAB_ALLOWED_ORIGINS). */
  allowedOrigins: string[];
  /** Redis shared by several lab servers for classrooms (LOCKLAB_COORDINATION_URL); never a lab's node. Unset: one server. */
  coordinationUrl: string | null;
  /** The instructor token (LOCKLAB_INSTRUCTOR_TOKEN); null: generated at start (shared through coordination), written to a private file the log names. */
  instructorToken: string | null;
  /** Learners per classroom (LOCKLAB_CLASSROOM_MAX_LEARNERS). */
  classroomMaxLearners: number;
  /** A classroom with no action for this long ends (LOCKLAB_CLASSROOM_IDLE_MS, default 2 h). */
  classroomIdleMs: number;
  /** A classroom whose instructor's last tab left this long ago ends (LOCKLAB_CLASSROOM_INSTRUCTOR_AWAY_MS, default 15 min). */
  classroomInstructorAwayMs: number;
  /** Per-socket token bucket for classroom actions: burst size and refill per second (LOCKLAB_ACTION_BURST, LOCKLAB_ACTION_RATE). */
  actionBurst: number;
  actionRatePerSecond: number;
  /** Per-socket token bucket for commands on the socket's own lab (LOCKLAB_LAB_ACTION_BURST, LOCKLAB_LAB_ACTION_RATE):
   *  far above what a person clicks, low enough that a script cannot spawn redis-servers in a loop. */
  labActionBurst: number;
  labActionRatePerSecond: number;
  /** Redis commands per second that all learner runs together may send, shared equally among the runs going (LOCKLAB_COMMAND_RATE). */
  commandRate: number;
  /** A node whose redis-server passes this RSS (MiB) is restarted (LOCKLAB_NODE_RSS_MB): Lua's memory is outside maxmemory. */
  nodeRssMb: number;
  /** Memory all runs together may reserve, MiB (LOCKLAB_RUN_MEMORY_MB; default a quarter of the machine's). */
  runMemoryMb: number;
  /** Runs at once (LOCKLAB_MAX_RUNS; default 8 per core); the rest wait, served one browser at a time in turn. */
  maxRuns: number;
  /** Runs at once admitted whatever the cores' load (LOCKLAB_CPU_FLOOR_RUNS; default 2 per core); past it, only while the cores are not saturated. */
  cpuFloorRuns: number;
  /** CPU pressure, in % of time some task waited for a core, at which runs past the floor wait (LOCKLAB_CPU_PRESSURE_LIMIT; 100 turns it off). */
  cpuPressureLimit: number;
  /** One browser's runs at once (LOCKLAB_RUNS_PER_BROWSER; default a tenth of maxRuns, at least a check's lanes: 1 + gradingSpareLabs); more wait for its own. */
  runsPerBrowser: number;
  /** One browser's run memory, MiB (LOCKLAB_RUN_MEMORY_PER_BROWSER_MB; default a tenth of the budget, at least one largest run). */
  runMemoryPerBrowserMb: number;
  /** The longest a client of a run may live, ms (LOCKLAB_RUN_WALL_MS): a run may ask for less, never more. */
  runWallClockMs: number;
  /** A run may be stopped after this long for another browser's run waiting at a full server (LOCKLAB_RUN_SLICE_MS). */
  runSliceMs: number;
  /** Runs that may wait (LOCKLAB_RUN_QUEUE); the next is refused. */
  runQueue: number;
  /** How long a run may wait for room before it is refused (LOCKLAB_RUN_WAIT_MS). */
  runWaitMs: number;
  /** One token bucket per lab, shared by every socket on it (LOCKLAB_PER_LAB_BURST, LOCKLAB_PER_LAB_RATE): five tabs
   *  on one lab get no more than one would. */
  perLabBurst: number;
  perLabRatePerSecond: number;
  /** A socket refused this many commands within `floodWindowMs` is disconnected (LOCKLAB_FLOOD_REFUSALS, LOCKLAB_FLOOD_WINDOW_MS). */
  floodRefusals: number;
  floodWindowMs: number;
  /** Own labs one browser may hold (LOCKLAB_LABS_PER_BROWSER); classroom labs are not counted. Its checks' spares come on top. */
  labsPerBrowser: number;
  /** How long a browser asking for a lab at a full server waits for one to come free (LOCKLAB_LAB_WAIT_MS). */
  labWaitMs: number;
  /** A lab nothing happened in for this long (no command, no run) yields to a newcomer waiting at a full server (LOCKLAB_LAB_YIELD_IDLE_MS). */
  labYieldIdleMs: number;
  /** Spare labs a "Check my solution" may borrow when the server has room (LOCKLAB_GRADING_SPARE_LABS). */
  gradingSpareLabs: number;
  /** Sockets one browser may have open at once (LOCKLAB_SOCKETS_PER_BROWSER). */
  socketsPerBrowser: number;
  /** HMAC key of the browser cookie (LOCKLAB_COOKIE_SECRET); null: a random one per server start. */
  cookieSecret: string | null;
  /** Bearer token that reads /metrics from beyond this machine (LOCKLAB_METRICS_TOKEN); null: loopback only (ops/metrics-access.ts). */
  metricsToken: string | null;
  /** Zero bits of SHA-256 a new browser identity costs (LOCKLAB_IDENTITY_WORK_BITS): about 2^bits hashes, paid once per browser. */
  identityWorkBits: number;
  /**
   * Each lab's share of the link process's descriptors, its links' listening sockets and its connections'
   * (LOCKLAB_LINK_SOCKETS_PER_LAB); null: the link process's RLIMIT_NOFILE over `maxLabs` (link-host/lab-sockets.ts).
   */
  linkSocketsPerLab: number | null;
  /** Descriptors the web server keeps for its own sockets, which no run or new lab may take (LOCKLAB_FD_RESERVE; ops/descriptors.ts). */
  descriptorReserve: number;
  /** Sandbox host processes that run learners' code (LOCKLAB_SANDBOX_HOSTS; one per core, 2 to 8). */
  sandboxHosts: number;
  /** The most descriptors each sandbox host may hold, its learners' connections 64 short of it (LOCKLAB_SANDBOX_HOST_FDS); null: its RLIMIT_NOFILE. */
  sandboxHostFds: number | null;
  /**
   * Each lab's history budget: events and bytes kept per lab (LOCKLAB_HISTORY_EVENTS_PER_LAB,
   * LOCKLAB_HISTORY_BYTES_PER_LAB) and a run's share before it is stopped (LOCKLAB_HISTORY_EVENTS_PER_RUN,
   * LOCKLAB_HISTORY_BYTES_PER_RUN). Why the defaults: DEFAULT_HISTORY_BUDGET.
   */
  history: HistoryBudget;
  /** What is kept across restarts (server/store/): PGlite in LOCKLAB_DATA_DIR, Postgres at DATABASE_URL, or none (LOCKLAB_STORE=0). */
  store: StoreConfig;
  /**
   * Shared runs' bounds: one run (the run-file import limit), per browser (LOCKLAB_SHARED_RUNS_PER_BROWSER,
   * LOCKLAB_SHARED_MB_PER_BROWSER) and in total (LOCKLAB_SHARED_MB_TOTAL).
   */
  sharedRuns: SharedRunBounds;
}

/** What the largest run reserves: every client's heap at its cap and the worker (server/runs/lab-runs.ts). */
const LARGEST_RUN_MB = DEFAULT_LIMITS.maxClients * (DEFAULT_LIMITS.memoryBytes / 2 ** 20) + WORKER_HEAP_MB + 32;

function intFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min} (got "${raw}")`);
  return value;
}

export function configFromEnv(overrides: Partial<ServerConfig> = {}): ServerConfig {
  // Read once: other defaults follow from them.
  const maxRuns = intFromEnv('LOCKLAB_MAX_RUNS', defaultMaxRuns(), 1);
  const gradingSpareLabs = intFromEnv('LOCKLAB_GRADING_SPARE_LABS', 2, 0);
  return {
    port: intFromEnv('PORT', 3000, 0),
    host: process.env.HOST || '127.0.0.1',
    dev: process.env.NODE_ENV !== 'production',
    web: process.env.LOCKLAB_WEB !== '0',
    sandbox: process.env.LOCKLAB_SANDBOX !== '0',
    maxLabs: intFromEnv('LOCKLAB_MAX_LABS', defaultMaxLabs(), 1),
    // Long enough for a reload or a flaky connection; short enough that abandoned labs do not fill the server.
    labIdleMs: intFromEnv('LOCKLAB_LAB_IDLE_MS', 60_000, 1),
    warmLabs: intFromEnv('LOCKLAB_WARM_LABS', 1, 0),
    runRoot: defaultRunRoot(),
    allowedOrigins: (process.env.LOCKLAB_ALLOWED_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    coordinationUrl: process.env.LOCKLAB_COORDINATION_URL || null,
    instructorToken: process.env.LOCKLAB_INSTRUCTOR_TOKEN || null,
    classroomMaxLearners: intFromEnv('LOCKLAB_CLASSROOM_MAX_LEARNERS', 200, 1),
    classroomIdleMs: intFromEnv('LOCKLAB_CLASSROOM_IDLE_MS', 2 * 60 * 60_000, 1),
    // A coffee break, or a laptop that went to sleep: long enough to come back, short enough that a class left
    // behind does not keep its lab (five redis-servers) running while learners wait for nobody.
    classroomInstructorAwayMs: intFromEnv('LOCKLAB_CLASSROOM_INSTRUCTOR_AWAY_MS', 15 * 60_000, 1),
    actionBurst: intFromEnv('LOCKLAB_ACTION_BURST', 20, 1),
    actionRatePerSecond: intFromEnv('LOCKLAB_ACTION_RATE', 5, 1),
    labActionBurst: intFromEnv('LOCKLAB_LAB_ACTION_BURST', 60, 1),
    labActionRatePerSecond: intFromEnv('LOCKLAB_LAB_ACTION_RATE', 20, 1),
    // Every command becomes a history event the event loop takes in, checks and pushes: about 8 µs each
    // on this machine's cores, so 15,000 a second leave most of one core for sockets and faults.
    commandRate: intFromEnv('LOCKLAB_COMMAND_RATE', 15_000, 100),
    // A fresh node uses about 10 MB; below 32 the guard would restart healthy nodes.
    nodeRssMb: intFromEnv('LOCKLAB_NODE_RSS_MB', 64, 32),
    runMemoryMb: intFromEnv('LOCKLAB_RUN_MEMORY_MB', defaultRunMemoryMb(), 128),
    maxRuns,
    cpuFloorRuns: intFromEnv('LOCKLAB_CPU_FLOOR_RUNS', defaultCpuFloorRuns(), 1),
    cpuPressureLimit: intFromEnv('LOCKLAB_CPU_PRESSURE_LIMIT', DEFAULT_CPU_PRESSURE_LIMIT, 1),
    // A check's lanes (the learner's lab and its spares) count against its browser: its share lets them all play.
    runsPerBrowser: intFromEnv('LOCKLAB_RUNS_PER_BROWSER', defaultRunsPerBrowser(maxRuns, 1 + gradingSpareLabs), 1),
    runMemoryPerBrowserMb: intFromEnv(
      'LOCKLAB_RUN_MEMORY_PER_BROWSER_MB',
      defaultRunMemoryPerBrowserMb(intFromEnv('LOCKLAB_RUN_MEMORY_MB', defaultRunMemoryMb(), 128), LARGEST_RUN_MB),
      1,
    ),
    runWallClockMs: intFromEnv('LOCKLAB_RUN_WALL_MS', 30_000, 1_000),
    runQueue: intFromEnv('LOCKLAB_RUN_QUEUE', 200, 0),
    // Longer than a lesson's run takes (they end in a few seconds), so a class taking turns is not cut;
    // short enough that idle programs filling the budget give way to a bystander within seconds.
    runSliceMs: intFromEnv('LOCKLAB_RUN_SLICE_MS', 10_000, 1_000),
    runWaitMs: intFromEnv('LOCKLAB_RUN_WAIT_MS', 60_000, 1_000),
    perLabBurst: intFromEnv('LOCKLAB_PER_LAB_BURST', 60, 1),
    perLabRatePerSecond: intFromEnv('LOCKLAB_PER_LAB_RATE', 20, 1),
    floodRefusals: intFromEnv('LOCKLAB_FLOOD_REFUSALS', 50, 1),
    floodWindowMs: intFromEnv('LOCKLAB_FLOOD_WINDOW_MS', 10_000, 1),
    labsPerBrowser: intFromEnv('LOCKLAB_LABS_PER_BROWSER', 2, 1),
    // The tester's figure: a newcomer at a server a stranger filled gets a lab within a minute.
    labWaitMs: intFromEnv('LOCKLAB_LAB_WAIT_MS', 60_000, 0),
    // Half a minute of nothing — no command, no run — and only while someone waits at a full server.
    labYieldIdleMs: intFromEnv('LOCKLAB_LAB_YIELD_IDLE_MS', 30_000, 1_000),
    gradingSpareLabs,
    socketsPerBrowser: intFromEnv('LOCKLAB_SOCKETS_PER_BROWSER', 8, 1),
    cookieSecret: process.env.LOCKLAB_COOKIE_SECRET || null,
    metricsToken: process.env.LOCKLAB_METRICS_TOKEN || null,
    // 2^17 hashes on average, once per browser; a script pays the same for every identity it mints (browser-identity.ts).
    // Measured in Chromium on this two-core machine under a load of 13: 2^18 took a median 0.7 s and up to 2.6 s
    // per page, which is not "well under a second"; 2^17 halves that (about 0.1 s on an idle machine).
    identityWorkBits: intFromEnv('LOCKLAB_IDENTITY_WORK_BITS', 17, 0),
    history: historyBudgetFromEnv(),
    linkSocketsPerLab: process.env.LOCKLAB_LINK_SOCKETS_PER_LAB ? intFromEnv('LOCKLAB_LINK_SOCKETS_PER_LAB', 0, 8) : null,
    descriptorReserve: intFromEnv('LOCKLAB_FD_RESERVE', defaultDescriptorReserve(), 64),
    sandboxHosts: sandboxHostCount(availableParallelism()),
    sandboxHostFds: process.env.LOCKLAB_SANDBOX_HOST_FDS ? intFromEnv('LOCKLAB_SANDBOX_HOST_FDS', 0, 128) : null,
    store: storeFromEnv(),
    sharedRuns: {
      maxRunBytes: MAX_RUN_FILE_BYTES,
      runsPerOwner: intFromEnv('LOCKLAB_SHARED_RUNS_PER_BROWSER', 50, 1),
      bytesPerOwner: intFromEnv('LOCKLAB_SHARED_MB_PER_BROWSER', 50, 1) * 2 ** 20,
      totalBytes: intFromEnv('LOCKLAB_SHARED_MB_TOTAL', 2048, 1) * 2 ** 20,
    },
    ...overrides,
  };
}

function storeFromEnv(): StoreConfig {
  if (process.env.LOCKLAB_STORE === '0') return { kind: 'none' };
  if (process.env.DATABASE_URL) return { kind: 'postgres', url: process.env.DATABASE_URL };
  return { kind: 'pglite', dataDir: defaultDataDir() };
}

function historyBudgetFromEnv(): HistoryBudget {
  const d = DEFAULT_HISTORY_BUDGET;
  const budget: HistoryBudget = {
    maxEvents: intFromEnv('LOCKLAB_HISTORY_EVENTS_PER_LAB', d.maxEvents, 100),
    maxBytes: intFromEnv('LOCKLAB_HISTORY_BYTES_PER_LAB', d.maxBytes, 65_536),
    runEvents: intFromEnv('LOCKLAB_HISTORY_EVENTS_PER_RUN', d.runEvents, 50),
    runBytes: intFromEnv('LOCKLAB_HISTORY_BYTES_PER_RUN', d.runBytes, 32_768),
  };
  // A run's share must fit in its lab's budget, or the run going on would be evicted from under its viewers.
  if (budget.runEvents > budget.maxEvents || budget.runBytes > budget.maxBytes) {
    throw new Error('LOCKLAB_HISTORY_*_PER_RUN must not exceed LOCKLAB_HISTORY_*_PER_LAB');
  }
  return budget;
}
