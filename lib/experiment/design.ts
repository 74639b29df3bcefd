/**
 * Lesson 8's experiment: the Arabic production write-up's table, measured in
 * the learner's lab. Five cron workers send the same morning job for 47
 * simulated days against five real nodes whose links are delayed like the
 * write-up's network, once without a lock, once with one node, and with
 * Redlock over five nodes (its links delayed, and not). What is fixed here is
 * the design — the write-up's figures, the variants, the compressed day — so
 * the server that plays it and the page that shows it cannot disagree. No zod
 * and no Node here: the page imports it.
 */
import type { LatencySummary } from '../measurements/latency';

/** What the write-up measured, on five Hetzner CCX13 nodes in one region, five cron workers, 47 days. */
export const WRITE_UP = {
  /** Redlock over five nodes, acquire latency, ms. */
  p50: 3.2,
  p95: 8.7,
  p99: 14.1,
  /** Duplicate executions a day before the lock (five workers, one job: the other four ran it too). */
  duplicatesPerDayWithoutLock: 4,
  /** Duplicates with Redlock, and over how many days. */
  duplicatesWithRedlock: 0,
  redlockDays: 47,
  /** Latency between the nodes, ms. */
  linkMs: { min: 0.4, max: 0.8 },
  workers: 5,
} as const;

/** The real day the experiment compresses. */
export const REAL_DAY_MS = 86_400_000;

/**
 * The compressed calendar. A day lasts `dayMs`; the job fires at 06:00 of it (a fifth in) on every worker, each a
 * little late by its own clock (`wakeSpreadMs`: machines' clocks and cron daemons are never exactly together), and
 * takes `jobMs`. A worker that has the lock keeps it until `holdMs` after it woke, then releases it with its token:
 * in production the job takes minutes and the workers wake within milliseconds of each other, so the lock outlasts
 * every late wake-up; compressed, a 30 ms job would not outlast a busy machine's hiccups, which are not compressed.
 * Every worker tries every morning, one after another: a worker held back runs its mornings late, never skips one.
 * 47 days as in the write-up, so "0 in 47 days" is compared with as many mornings.
 */
export const CALENDAR = {
  days: 47,
  dayMs: 50,
  fireAtMs: 10,
  wakeSpreadMs: 2,
  jobMs: 30,
  holdMs: 40,
  /** The lock's TTL (the write-up's 30 s, compressed with the job: released long before it runs out). */
  ttlMs: 1_000,
  workers: 5,
} as const;

/** How many times faster than a real day the experiment's day goes: 1,728,000. */
export const COMPRESSION = REAL_DAY_MS / CALENDAR.dayMs;

/** Each link's delay, each way: the write-up's 0.4–0.8 ms (0.4 ms plus up to 0.4 ms more, drawn per message). */
export const LINK_DELAY = { delayMs: WRITE_UP.linkMs.min, jitterMs: WRITE_UP.linkMs.max - WRITE_UP.linkMs.min } as const;

export type ExperimentLock = 'none' | 'single-node' | 'redlock';

export interface ExperimentVariant {
  id: 'no-lock' | 'single-node' | 'redlock' | 'redlock-loopback';
  /** The row's name in the experiment's program and run title (English, like the code); the page names it by `id` in its language. */
  label: string;
  /** What the row measures, in a sentence (the program's comment; the page words it by `id`). */
  description: string;
  lock: ExperimentLock;
  /** Whether every link is delayed like the write-up's network; false: plain loopback. */
  delayedLinks: boolean;
  /** Which of the write-up's figures this row stands beside (the page words it), or null when it measured nothing like it. */
  writeUp: 'duplicates-without-lock' | 'redlock' | null;
}

export const VARIANTS: readonly ExperimentVariant[] = [
  {
    id: 'no-lock',
    label: 'No lock',
    description: 'every worker runs the job when its cron fires',
    lock: 'none',
    delayedLinks: true,
    writeUp: 'duplicates-without-lock',
  },
  {
    id: 'single-node',
    label: 'Single node',
    description: 'SET … NX PX on Node 1, released with a token-checked script',
    lock: 'single-node',
    delayedLinks: true,
    writeUp: null,
  },
  {
    id: 'redlock',
    label: 'Redlock, 5 nodes',
    description: 'a majority of five nodes, the links delayed like the write-up’s network',
    lock: 'redlock',
    delayedLinks: true,
    writeUp: 'redlock',
  },
  {
    id: 'redlock-loopback',
    label: 'Redlock, 5 nodes, links not delayed',
    description: 'the same lock over plain loopback: what the delay costs',
    lock: 'redlock',
    delayedLinks: false,
    writeUp: null,
  },
];

export type ExperimentVariantId = ExperimentVariant['id'];

export const variantById = (id: ExperimentVariantId): ExperimentVariant => VARIANTS.find((v) => v.id === id) as ExperimentVariant;

/** One variant's figures, from its run's history (latencies) and the checker's verdict (duplicates). */
export interface ExperimentRow {
  variant: ExperimentVariantId;
  runId: string;
  /** `incomplete`: the run ended before every worker finished its days (a limit, or stopped): its figures cover fewer days. */
  status: 'complete' | 'incomplete';
  /** Why it is incomplete, in words. */
  note: string | null;
  /** Each acquire attempt's latency (null without a lock). */
  acquire: LatencySummary | null;
  /** Acquire attempts that did not get the lock (another worker had it, or no majority). */
  refused: number;
  /** Simulated days the run covered, and those on which the job ran at least once. */
  days: number;
  daysRun: number;
  /** Executions of the job, and those beyond one a day: the checker's duplicate count. */
  executions: number;
  duplicates: number;
  /** The most the run's processes waited for a CPU within one second, ms (null where Linux does not say). */
  cpuWaitMs: number | null;
}

export interface ExperimentProgress {
  /** The variant playing now, or null once all have played. */
  playing: ExperimentVariantId | null;
  /** The random seed its run is played with. */
  seed: number;
  /** Rows of the variants played so far, in order. */
  rows: ExperimentRow[];
  elapsedMs: number;
  /** On the last progress (nothing playing): the experiment's answer, for a tab whose own answer was lost. */
  result?: ExperimentResult;
}

export interface ExperimentResult {
  rows: ExperimentRow[];
  /** Stopped before every variant played (Stop, or another run started in the lab). */
  cancelled: boolean;
  seconds: number;
  /** The random seed of every variant's run (the workers' wake-up spread and tokens): the same seed replays them. */
  seed: number;
}

/** A row's duplicates per simulated day; null before any day ran. */
export const duplicatesPerDay = (row: Pick<ExperimentRow, 'duplicates' | 'days'>): number | null => (row.days > 0 ? row.duplicates / row.days : null);
