/**
 * What a verdict's headline says: which property failed (safety, liveness,
 * fencing, duplicates) and, when a diagnosis applies, its root cause — the one
 * the lessons are judged by (`rootCause`), so the page and `npm run fidelity`
 * never disagree — plus the facts a learner needs without opening "Checks"
 * (a quorum unavailable as expected, how many times a job ran).
 *
 * The failed properties are given as data (a check and, for duplicates, its
 * counts); the component words them in the page's language (verdict-words.ts).
 */
import { CHECK_NAMES, rootCause, type CheckName, type Diagnosis, type Verdict } from '@/lib/checker';

/** A failed property, to be put in words: duplicates carry what the headline counts. */
export type FailedProperty =
  | { check: Exclude<CheckName, 'duplicates'> }
  | { check: 'duplicates'; extra: number; job: { name: string; completed: number; expected: number } | null };

export interface VerdictHeadline {
  /** The property the headline names, or null when nothing failed (held) or nothing is proven (unknown). */
  property: CheckName | null;
  /** "Liveness failed: …"; null for a verdict that did not fail (its word says it). */
  title: FailedProperty | null;
  /** The root cause, when a diagnosis explains the failure. */
  cause: Diagnosis | null;
  /** The other properties that failed. */
  also: FailedProperty[];
  /** What else the run showed, in one line each: the checks' notes. */
  facts: string[];
}

export function verdictHeadline(verdict: Verdict): VerdictHeadline {
  const violated = CHECK_NAMES.filter((name) => verdict.checks[name].applicable && verdict.checks[name].valid === 'violated');
  const cause = rootCause(verdict);
  const facts = [...new Set(CHECK_NAMES.flatMap((name) => (verdict.checks[name].applicable ? verdict.checks[name].notes : [])))];
  if (verdict.valid !== 'violated' || violated.length === 0) return { property: null, title: null, cause, also: [], facts };
  // The property the root cause explains, else the one whose counter-example came first.
  const first = [cause?.check, verdict.counterExample?.check].find((c): c is CheckName => c !== undefined && violated.includes(c)) ?? (violated[0] as CheckName);
  const title = (name: CheckName): FailedProperty => (name === 'duplicates' ? duplicates(verdict) : { check: name });
  return { property: first, title: title(first), cause, also: violated.filter((name) => name !== first).map(title), facts };
}

/** Which job ran too often and how many extra executions there were: "job 'daily-report' ran 5 times, expected once (4 duplicate executions)". */
function duplicates(verdict: Verdict): FailedProperty {
  const job = verdict.stats.jobs.find((j) => j.expected !== null && j.completed > j.expected);
  const extra = verdict.checks.duplicates.violations;
  if (!job || job.expected === null) return { check: 'duplicates', extra, job: null };
  return { check: 'duplicates', extra, job: { name: job.job, completed: job.completed, expected: job.expected } };
}
