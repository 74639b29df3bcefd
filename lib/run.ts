/**
 * A run: the learner's program executed by N clients against the lab, with
 * an optional scenario of faults, checked as it goes. Schemas for the
 * browser's run messages and the shapes the server reports back.
 */
import { z } from 'zod';
import type { Verdict } from './checker/types';
import type { Words } from './words';
import { MAX_CLIENTS } from './cluster';
import { MAX_SEED } from './random';
import { scenarioSchema, triggerSchema } from './scenario';
import { topologySchema } from './schemas';

const clientId = z.number().int().min(1).max(MAX_CLIENTS);

export const MAX_CODE_CHARS = 100_000;

export const runLimitsSchema = z
  .object({
    wallClockMs: z.number().int().min(1_000).max(120_000),
    cpuSliceMs: z.number().int().min(10).max(1_000),
    commandsPerSecond: z.number().int().min(1).max(10_000),
    commandTimeoutMs: z.number().int().min(10).max(30_000),
    consoleBytes: z.number().int().min(1_024).max(1_048_576),
  })
  .partial()
  .strict();

export const checkerSettingsSchema = z
  .object({
    livenessBoundMs: z.number().int().min(100).max(120_000),
    expectedExecutions: z.union([z.number().int().min(0).max(1_000_000), z.record(z.string().max(100), z.number().int().min(0).max(1_000_000))]),
    lockKeys: z.array(z.string().max(200)).max(50),
  })
  .partial()
  .strict();

export const runStartSchema = z
  .object({
    code: z.string().min(1, 'the program is empty').max(MAX_CODE_CHARS, `the program is longer than ${MAX_CODE_CHARS} characters`),
    /** Defaults to the scenario's client count, else 3. */
    clients: clientId.optional(),
    scenario: scenarioSchema.optional(),
    limits: runLimitsSchema.optional(),
    checker: checkerSettingsSchema.optional(),
    /** Run on this topology (the lab is rebuilt if it differs). */
    topology: topologySchema.optional(),
    /**
     * Start from a clean lab: every node up and empty, every link healed. Defaults to true with a
     * scenario or a topology (so "kill three" always starts from five), false otherwise (a manual
     * experiment keeps the nodes and keys the learner left).
     */
    fresh: z.boolean().optional(),
    /**
     * Replays a run: the seed the clients' Math.random(), crypto values and store latencies are drawn
     * from (and, with a scenario, its schedule: it becomes the scenario's seed). Drawn when absent.
     */
    seed: z.number().int().min(0).max(MAX_SEED).optional(),
    /** "Pause the run when …": every client is frozen at this moment of the run, until Continue or Step. */
    breakpoint: triggerSchema.optional(),
  })
  .strict();

export type RunStartInput = z.input<typeof runStartSchema>;

/** The learner's breakpoint set, changed or cleared (null) while a run goes. */
export const runBreakSchema = z.object({ when: triggerSchema.nullable() }).strict();
export type RunBreakInput = z.input<typeof runBreakSchema>;

/** Continue from the breakpoint the run stands at; `step`: stop again at the next answered command. */
export const runContinueSchema = z.object({ step: z.boolean().default(false) }).strict();
export type RunContinueInput = z.input<typeof runContinueSchema>;

/** A syntax or runtime error in the learner's own source (1-based line, 1-based column), ready for an editor marker. */
export interface Diagnostic {
  client?: number;
  severity: 'error' | 'warning';
  kind: 'syntax' | 'runtime' | 'limit';
  message: string;
  /** `message` as data when it is the lab's own sentence (a limit), not the compiler's or the program's. */
  words?: Words;
  line: number;
  column: number;
  /**
   * A Redis command that failed for a reason in the lab (a node down or paused, a link cut or delayed, a
   * failover): what the worker saw, so the server can say what happened in the learner's terms
   * (server/runs/failure-words.ts) instead of ioredis's sentence.
   */
  failure?: CommandFailure;
}

/** A learner's Redis command that failed because of the lab's state, not the command itself. */
export interface CommandFailure {
  command: string;
  node: number;
  /** What the connection saw: refused (nothing listens), timeout (no answer in time), lost (dropped while waiting), readonly (a replica refused a write). */
  cause: 'refused' | 'timeout' | 'lost' | 'readonly';
  /** How often ioredis retried before giving up, and whether the learner chose it (maxRetriesPerRequest). */
  retries: number | null;
  retriesSet: boolean;
  /** The command timeout it waited for (for `timeout`). */
  timeoutMs: number;
  /** ioredis's own error, as the program received it ("MaxRetriesPerRequestError"). */
  error: string;
}

export type ClientEndStatus =
  | 'exited' // its program finished: nothing left to run
  | 'error' // an uncaught exception or rejection ended it
  | 'crashed' // crashClient
  | 'limit' // it broke a sandbox limit
  | 'timeout' // wall clock
  | 'stopped' // the run was stopped
  | 'killed'; // its worker was terminated

export interface ClientOutcome {
  client: number;
  status: ClientEndStatus;
  error?: string;
  /** `error` as data when it is the lab's own sentence (a limit, a timeout), not the program's error. */
  errorWords?: Words;
}

export type RunStatus =
  | 'completed' // every client ended by itself (exited, error, crashed)
  | 'stopped' // stop() was called
  | 'limit' // a client broke a sandbox limit; the whole run was ended
  | 'timeout' // wall clock
  | 'syntax-error' // the code did not compile; nothing ran
  | 'decided' // ended early: its verdict could no longer change (`error` says why; server/runs/lab-runs.ts)
  | 'killed'; // the worker did not answer in time and was terminated

export interface RunOutcome {
  runId: string;
  status: RunStatus;
  /** Plain words for the UI when the run did not complete normally. */
  error?: string;
  /** `error` as data when it is the lab's own sentence (a limit, a run ended early), for a page in another language. */
  errorWords?: Words;
  clients: ClientOutcome[];
  durationMs: number;
}

export interface RunInfo {
  runId: string;
  clients: number;
  scenario: { id: string; title: string; seed: number } | null;
  /** What the run was drawn from (the scenario's seed, the one asked for, or a fresh one): run:start with it replays the run. */
  seed: number;
  /** Lab clock when the run started. */
  startedAt: number;
  /**
   * Set when "Check my solution" played this run (in the learner's lab, so they can watch): the check's run,
   * never the learner's own. The page says whose run it shows and goes back to the learner's after the check.
   */
  check?: CheckRunTag;
}

/** Which of the check's runs this is: "the check's run 3 of 12 (hidden check 2 of 5)". */
export interface CheckRunTag {
  /** Its place in the check's plan, from 1. */
  n: number;
  total: number;
  /** What it plays, in the page's language (a scenario's or a probe's title); null for a hidden check. */
  title: string | null;
  /** A hidden check is named only by its place among the hidden ones, until it fails. */
  hidden: { n: number; total: number } | null;
}

export interface RunVerdict {
  runId: string;
  verdict: Verdict;
}

/**
 * A run whose processes waited this long for a CPU within one second was disturbed by a busy machine: its
 * timing-dependent outcomes (a break that did not show, a timeout) may be the machine's. The grader's
 * default (server/grading/disturbance.ts); the verdict says so to the learner.
 */
export const DISTURBED_CPU_WAIT_MS = 1_000;

export interface RunEnded {
  runId: string;
  outcome: RunOutcome;
  verdict: Verdict;
  /**
   * The most any of the run's processes (its nodes, the link process, the server) waited for a CPU within
   * one second, in ms: near 0 on a quiet machine. The grader does not trust a failure seen while the
   * machine kept the run waiting (server/grading/disturbance.ts). Absent where Linux does not say.
   */
  cpuWaitMs?: number;
}

/** What a viewer joining a lab needs to know of its runs beyond the history: the one going on, or the last one's end. */
export interface RunCatchUp {
  active: RunInfo | null;
  /** The active run's verdict so far. */
  verdict: RunVerdict | null;
  /** The last run to end, with the run it was (a tab that joins now never saw it start). */
  last: { info: RunInfo; ended: RunEnded } | null;
}
