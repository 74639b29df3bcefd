/** Server settings from the environment, read once, with the defaults the README lists. */
import { defaultRunRoot } from './cluster/run-dir';
import { DEFAULT_HISTORY_BUDGET, type HistoryBudget } from './lab/history-log';

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
  /** The instructor token (LOCKLAB_INSTRUCTOR_TOKEN); null: generated at start (shared through coordination) and logged once. */
  instructorToken: string | null;
  /** Learners per classroom (LOCKLAB_CLASSROOM_MAX_LEARNERS). */
  classroomMaxLearners: number;
  /** A classroom with no action for this long ends (LOCKLAB_CLASSROOM_IDLE_MS, default 2 h). */
  classroomIdleMs: number;
  /** Per-socket token bucket for classroom actions: burst size and refill per second (LOCKLAB_ACTION_BURST, LOCKLAB_ACTION_RATE). */
  actionBurst: number;
  actionRatePerSecond: number;
  /** Per-socket token bucket for commands on the socket's own lab (LOCKLAB_LAB_ACTION_BURST, LOCKLAB_LAB_ACTION_RATE):
   *  far above what a person clicks, low enough that a script cannot spawn redis-servers in a loop. */
  labActionBurst: number;
  labActionRatePerSecond: number;
  /**
   * Each lab's history budget: events and bytes kept per lab (LOCKLAB_HISTORY_EVENTS_PER_LAB,
   * LOCKLAB_HISTORY_BYTES_PER_LAB) and a run's share before it is stopped (LOCKLAB_HISTORY_EVENTS_PER_RUN,
   * LOCKLAB_HISTORY_BYTES_PER_RUN). Why the defaults: DEFAULT_HISTORY_BUDGET.
   */
  history: HistoryBudget;
}

function intFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min} (got "${raw}")`);
  return value;
}

export function configFromEnv(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    port: intFromEnv('PORT', 3000, 0),
    host: process.env.HOST || '127.0.0.1',
    dev: process.env.NODE_ENV !== 'production',
    web: process.env.LOCKLAB_WEB !== '0',
    sandbox: process.env.LOCKLAB_SANDBOX !== '0',
    maxLabs: intFromEnv('LOCKLAB_MAX_LABS', 24, 1),
    labIdleMs: intFromEnv('LOCKLAB_LAB_IDLE_MS', 10 * 60_000, 1),
    warmLabs: intFromEnv('LOCKLAB_WARM_LABS', 1, 0),
    runRoot: defaultRunRoot(),
    allowedOrigins: (process.env.LOCKLAB_ALLOWED_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    coordinationUrl: process.env.LOCKLAB_COORDINATION_URL || null,
    instructorToken: process.env.LOCKLAB_INSTRUCTOR_TOKEN || null,
    classroomMaxLearners: intFromEnv('LOCKLAB_CLASSROOM_MAX_LEARNERS', 200, 1),
    classroomIdleMs: intFromEnv('LOCKLAB_CLASSROOM_IDLE_MS', 2 * 60 * 60_000, 1),
    actionBurst: intFromEnv('LOCKLAB_ACTION_BURST', 20, 1),
    actionRatePerSecond: intFromEnv('LOCKLAB_ACTION_RATE', 5, 1),
    labActionBurst: intFromEnv('LOCKLAB_LAB_ACTION_BURST', 60, 1),
    labActionRatePerSecond: intFromEnv('LOCKLAB_LAB_ACTION_RATE', 20, 1),
    history: historyBudgetFromEnv(),
    ...overrides,
  };
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
