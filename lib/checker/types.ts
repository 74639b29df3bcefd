/**
 * The vocabulary of the safety checker: what it is asked (options) and what
 * it answers (a Verdict). Pure data, JSON-safe, shared by server and browser.
 */

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

export type DiagnosisKind =
  /** The lock's TTL is shorter than the critical section and nothing extends it. */
  | 'ttl-shorter-than-job'
  /** A DEL (or a release script) removed a lock key that held another client's token. */
  | 'release-deleted-foreign-lock'
  /** A client read the key as free (GET) and then SET it without NX after someone else had. */
  | 'check-then-set-race'
  /** A Redlock acquire counted as success with fewer votes than the quorum. */
  | 'acquired-without-quorum'
  /** A client was paused longer than what was left of its lock's validity. */
  | 'pause-beyond-validity'
  /** A node lost a live lock key in a restart without persistence and then granted it to another client. */
  | 'restart-without-persistence'
  /** A lock key was left without a TTL (SETNX without a PEXPIRE, a PERSIST) and its holder died or could: the key never frees. */
  | 'lock-without-ttl-never-frees'
  /** A critical section was still running after its lock's validity ended, and nobody else took the lock meanwhile. */
  | 'section-outlived-lock'
  /** Two clients counted the lock as theirs on disjoint sets of nodes: the quorum the code asked for is not a majority. */
  | 'quorum-not-majority'
  /** A failover promoted a replica that never received a live lock, and it granted that lock to another client. */
  | 'failover-lost-lock'
  /** A node's clock jumped forward and expired a live lock on it early; that node then granted the lock to another client. */
  | 'clock-jump-expired-lock'
  /** A holder's renewals failed (timed out, refused, or found another token), its lock expired, and its job ran on past it. */
  | 'renewal-failed-mid-job'
  /** A job with an expected execution count ran more often, and the extra run held no lock at all. */
  | 'job-without-lock'
  /** A job ran again under a lock because the record that it had run (a store write) arrived only after the lock was taken again. */
  | 'record-after-lock';

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
