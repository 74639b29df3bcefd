/**
 * The vocabulary of the safety checker: what it is asked (options) and what
 * it answers (a Verdict). Pure data, JSON-safe, shared by server and browser.
 */

import type { DiagnosisKind } from './diagnosis-catalogue';
import type { Words } from '../words';

/** Jepsen's three answers. Merged with `mergeValidity`: violated beats unknown beats held. */
export type Validity = 'held' | 'violated' | 'unknown';

export const CHECK_NAMES = ['mutual-exclusion', 'fencing', 'liveness', 'duplicates'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/** A span of lab time (ms), so the timeline can draw a band. */
export interface TimeWindow {
  from: number;
  to: number;
}

/** One proof, in words, with the events that prove it. */
export interface CounterExample {
  check: CheckName;
  /** Plain words: "Client 2 entered job 'report' at 1.24 s while Client 1 was still inside it …". */
  message: string;
  /** The same sentence as data, for a page in another language (absent in run files from before). */
  words?: Words;
  /** The seq numbers of the events that prove it, ascending. */
  seqs: number[];
  window: TimeWindow;
  /** The clients involved, ascending. */
  clients: number[];
}

/** Every diagnosis the checker can name: one per entry of diagnosis-catalogue.ts, each documented in its file. */
export type { DiagnosisKind } from './diagnosis-catalogue';

/** A named bug, computed from the history. */
export interface Diagnosis {
  kind: DiagnosisKind;
  /** Which check it explains. */
  check: CheckName;
  message: string;
  /** The same sentence as data (absent in run files from before). */
  words?: Words;
  seqs: number[];
  window: TimeWindow;
  clients: number[];
  /** How many times the same bug (same kind and cause, e.g. the key, whichever client hit it) was seen; the message describes the first. */
  occurrences: number;
}

export interface CheckResult {
  check: CheckName;
  /**
   * False when the history held nothing this check could look at (no job ran,
   * no store write, no lock activity, no expected execution count): the check
   * is then left out of the overall merge, unless `required`.
   */
  applicable: boolean;
  valid: Validity;
  /** One line for a badge: "held: 14 critical sections, none overlapped". */
  summary: string;
  /** `summary` as data (absent in run files from before). */
  summaryWords?: Words;
  /** The first counter-example (a violation, or the reason for `unknown`), or null when held. */
  counterExample: CounterExample | null;
  /** How many distinct violations were seen (counted even past those kept). */
  violations: number;
  /** How many things were indeterminate (a paused holder never resumed, a crashed execution…). */
  indeterminate: number;
  /** Other facts worth saying: "2 stale writes were rejected: fencing saved the store". */
  notes: string[];
  /** `notes` as data, one for one (absent in run files from before). */
  noteWords?: Words[];
}

/** Evidence that fencing did its job: writes the store refused. */
export interface SavedByFencing {
  count: number;
  /** Seqs of the first rejected writes (capped). */
  seqs: number[];
}

export interface JobStats {
  job: string;
  runId: string | null;
  /** Executions that exited normally. */
  completed: number;
  /** Executions cut short by their client's crash or end (their effect is unknown). */
  incomplete: number;
  /** Executions still inside when the history ends. */
  open: number;
  expected: number | null;
}

export interface VerdictStats {
  events: number;
  /** Lab time of the first and last event seen. */
  firstT: number | null;
  lastT: number | null;
  sections: number;
  storeWrites: number;
  lockAcquires: number;
  jobs: JobStats[];
  /** Executions beyond the expected count over all executions (the Arabic production write-up's "duplicate execution rate"), or null. */
  duplicateRate: number | null;
}

export interface Verdict {
  valid: Validity;
  /** True when computed for a finished history (open operations are then indeterminate, not pending). */
  final: boolean;
  checks: Record<CheckName, CheckResult>;
  /** The earliest counter-example of a violated check (or, if none, of an unknown one). */
  counterExample: CounterExample | null;
  diagnoses: Diagnosis[];
  savedByFencing: SavedByFencing;
  stats: VerdictStats;
}

export interface CheckerOptions {
  /** Liveness: how long clients may keep failing to take a free lock with a quorum up. Default 5,000 ms. */
  livenessBoundMs?: number;
  /**
   * Duplicates: how many times each job should execute per run. A number applies to
   * every job; a record to the jobs it names. Jobs without an expectation are not checked.
   */
  expectedExecutions?: number | Readonly<Record<string, number>>;
  /** Number of nodes in the lab (default: the highest node id seen in the history). */
  nodes?: number;
  /** Redis keys that are locks, beyond those inferred (LockEvent resources, keys SET with NX). */
  lockKeys?: readonly string[];
  /** Checks that must find something to check; if not, they answer `unknown` instead of not applicable. */
  required?: readonly CheckName[];
  /** Keep at most this many diagnoses (default 20). */
  maxDiagnoses?: number;
  /**
   * The lab-clock time that messages call 0 (the run's start), so "at 0.60 s" in a counter-example is the
   * 0.6 s mark on the run's timeline. Windows and seqs stay on the lab clock. Default 0.
   */
  timeOrigin?: number;
}

export interface VerdictOptions {
  /** The history is complete (the run ended): open operations become indeterminate. Default false. */
  final?: boolean;
}
