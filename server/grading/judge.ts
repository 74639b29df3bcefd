/**
 * Whether a graded run kept its promise, and if not, why — in the learner's
 * words: a probe's own sentence, the learner's error, the checker's
 * counter-example (the one that explains most), a scenario's `expect`, the
 * work that had to get done, or, for a random schedule, safety alone.
 */
import { FATAL_DIAGNOSES, MECHANISM_DIAGNOSES, unmetExpectationSaid, type CheckName, type CheckerOptions, type CounterExample, type Verdict, type VerdictExpectation } from '@/lib/checker';
import type { HistoryEvent } from '@/lib/history';
import type { RunEnded } from '@/lib/run';
import { missingFollowerSaid, splitCallSaid } from './command-trace';
import type { PlannedRun } from './grading-plan';
import { probeFailure } from './probe-program';
import { probeReason, withOwnWhy } from './probe-words';
import { say } from '@/lib/checker/said';
import { words, type Words } from '@/lib/words';

/**
 * Why a run failed: the English sentence, and, when the sentence is the grader's or the checker's own, the same
 * as data for a page in another language. A probe's sentence comes written by the server in the check's language
 * too (`shown`); a compiler's error comes as it is (English, or the learner's own words).
 */
export interface Reason {
  message: string;
  words?: Words;
  /** The sentence in the language the check was asked in, when the server wrote it (a probe's, a trace rule's why). */
  shown?: string;
}

/** Words of the checker (a counter-example, a diagnosis) as a reason, with their data when they carry it. */
function fromChecker(said: { message: string; words?: Words }): Reason {
  return said.words ? { message: said.message, words: said.words } : { message: said.message };
}

// Which diagnoses fail a graded run whatever the timing (FATAL_DIAGNOSES), and which say how a violation came
// about (MECHANISM_DIAGNOSES): each diagnosis's own file says (`grades`, lib/checker/diagnosis-spec.ts).

/**
 * A diagnosis that tells how a violated check's counter-example came about, in what the run showed: it says more
 * than the bare count ("ran twice") and leaves nothing to guess (a late done-record is not a missing fencing token).
 */
function mechanismSaid(verdict: Verdict): Reason | null {
  const mechanism = verdict.diagnoses.find((d) => MECHANISM_DIAGNOSES.includes(d.kind) && verdict.checks[d.check].valid === 'violated');
  return mechanism ? fromChecker(mechanism) : null;
}

/** The program did not compile, or one of its clients failed by its own doing (an error, a limit, a timeout). */
function crashReason(ended: RunEnded): Reason | null {
  const { outcome } = ended;
  if (outcome.status === 'syntax-error') return say('grading.doesNotCompile', { error: outcome.error ?? 'syntax error' });
  const crashedByCode = outcome.clients.find((c) => c.status === 'error' || c.status === 'limit' || c.status === 'timeout');
  if (crashedByCode) {
    const error = (crashedByCode.error ?? '').trimEnd();
    // A limit's sentence is the lab's own, with its data; a program's error is the program's words.
    const said = crashedByCode.errorWords ? { words: crashedByCode.errorWords } : error;
    return say('grading.clientFailed', { client: { client: crashedByCode.client }, status: crashedByCode.status, hasError: error.trim() ? 'yes' : 'no', error: said });
  }
  return null;
}

/** Why a graded run failed, or null when it passed. */
export function failureReason(ended: RunEnded, minCompleted: number, job: string | null = null): Reason | null {
  const { verdict } = ended;
  const crashed = crashReason(ended);
  if (crashed) return crashed;
  const fatal = verdict.diagnoses.find((d) => FATAL_DIAGNOSES.includes(d.kind));
  if (fatal) return fromChecker(fatal);
  const completed = completedExecutions(verdict);
  if (verdict.valid === 'unknown' && completed === 0 && minCompleted > 0) return neverRanSaid(verdict, job) ?? say('grading.noJobRan');
  if (verdict.valid !== 'held') {
    const mechanism = mechanismSaid(verdict);
    if (mechanism) return mechanism;
    const example = explainingCounterExample(verdict);
    return example ? fromChecker(example) : say('grading.verdictIs', { valid: verdict.valid });
  }
  if (completed < minCompleted) return say('grading.tooFewCompleted', { completed, needed: minCompleted });
  return null;
}

/**
 * The counter-example that explains most: a stale write the store took says why two overlapping sections
 * mattered (the token did not grow with the grants), so it comes before the overlap itself.
 */
export function explainingCounterExample(verdict: Verdict): CounterExample | null {
  const fencing = verdict.checks.fencing;
  if (fencing.applicable && fencing.valid === 'violated' && fencing.counterExample) return fencing.counterExample;
  return verdict.counterExample;
}

/** A run with a job to do in which no execution of it ever began: what happened, in words (the job never ran). */
export function neverRanSaid(verdict: Verdict, job: string | null = null): Reason | null {
  if (verdict.valid === 'held' || verdict.checks['mutual-exclusion'].applicable || verdict.checks.fencing.applicable) return null;
  const { jobs } = verdict.stats;
  if (jobs.some((j) => j.completed + j.incomplete + j.open > 0)) return null;
  const named = job ?? jobs.find((j) => j.expected !== null && j.expected > 0)?.job ?? null;
  return say('grading.jobNeverRan', { named: named ? 'yes' : 'no', job: { code: named ?? '' } });
}

function completedExecutions(verdict: Verdict): number {
  return verdict.stats.jobs.reduce((sum, job) => sum + job.completed, 0);
}

/** Why this run of the plan failed, in the learner's words, or null. */
export function judge(planned: PlannedRun, ended: RunEnded, minCompleted: number, events: () => readonly HistoryEvent[], origin: number): string | null {
  return judged(planned, ended, minCompleted, events, origin)?.message ?? null;
}

/** `judge`, with the sentence as data when it is the grader's or the checker's own. */
export function judged(
  planned: PlannedRun,
  ended: RunEnded,
  minCompleted: number,
  events: () => readonly HistoryEvent[],
  origin: number,
  /** Clients' errors as the probe threw them, when the outcome shows them as sentences (`probeErrorText`). */
  probeErrors: readonly string[] = [],
): Reason | null {
  const { outcome, verdict } = ended;
  const probeSaid = [...probeErrors, ...outcome.clients.map((c) => c.error)].map(probeFailure).find((said) => said !== null);
  let reason: Reason | null;
  if (probeSaid) reason = probeReason(probeSaid, planned);
  else if (planned.random) reason = safetyBrokenSaid(verdict);
  else if (planned.probe) {
    // A probe's verdict is its own assertions: it may run no job at all, so the checker may rightly say "unknown".
    reason = undefinedInProbe(ended, planned.exercise) ?? crashReason(ended);
    if (reason === null && planned.expect) reason = unmetWords(verdict, planned.expect, expectedJob(planned.checker?.expectedExecutions));
  } else {
    reason = failureReason(ended, minCompleted, expectedJob(planned.checker?.expectedExecutions));
    if (reason === null && planned.expect) reason = unmetWords(verdict, planned.expect, expectedJob(planned.checker?.expectedExecutions));
  }
  // The command order, judged on the history: what the learner's call sent, whatever the timing did with it.
  if (reason === null && planned.follows && planned.trace) {
    const said = missingFollowerSaid(events(), planned.trace, origin, planned.follows);
    return said === null ? null : withOwnWhy(said, planned);
  }
  if (reason === null) return null;
  const trace = planned.trace ? splitCallSaid(events(), planned.trace, origin) : null;
  if (!trace) return reason;
  // A reason without words (a probe's own sentence) is said as it is, the trace after it in the page's language
  // (Arabic isolates the reason, so an English sentence before it does not turn the paragraph left to right).
  const english = say('judging.withTrace', { reason: reason.words ? { words: reason.words } : reason.message, trace: { words: trace.words } });
  if (reason.words || !reason.shown) return english;
  // The probe's sentence the server wrote in the check's language goes in the page's words; `message` stays English.
  return { message: english.message, words: words('judging.withTrace', { reason: reason.shown, trace: { words: trace.words } }) };
}

/**
 * A probe runs the learner's declarations without their driver (everything from the first top-level `await`):
 * a function that reads a variable only the driver defines fails there, and the learner should learn why.
 */
function undefinedInProbe(ended: RunEnded, exercise: string): Reason | null {
  for (const client of ended.outcome.clients) {
    const name = /ReferenceError: '([^']+)' is not defined/.exec(client.error ?? '')?.[1];
    if (name) return say('grading.usedBeforeDefined', { fn: exercise, name: { code: name } });
  }
  return null;
}

/** A scenario's promise not kept, in words: the checker's counter-example when there is one. */
/** The job a run is expected to run, when its checker options name one (lesson 8's `daily-report`). */
function expectedJob(expected: CheckerOptions['expectedExecutions']): string | null {
  if (expected === undefined || typeof expected === 'number') return null;
  return Object.entries(expected).find(([, n]) => n > 0)?.[0] ?? null;
}

function unmetWords(verdict: Verdict, expect: VerdictExpectation, job: string | null = null): Reason | null {
  const unmet = unmetExpectationSaid(verdict, expect);
  if (unmet === null) return null;
  if (expect.savedByFencing && verdict.savedByFencing.count === 0) return say('grading.neverRefused');
  const mechanism = mechanismSaid(verdict);
  if (mechanism) return mechanism;
  if (verdict.counterExample) return fromChecker(verdict.counterExample);
  // Nothing ran, so nothing could be judged: say that, not "the verdict is unknown".
  const never = neverRanSaid(verdict, job);
  if (never) return never;
  // What was unmet is the expectation's own check (lib/checker/expectation.ts), in the page's language too.
  return say('grading.scenarioExpects', { verdict: expect.verdict, unmet: { words: unmet.words } });
}

/** The checks a random schedule may break; liveness is not one of them (a random fault may rightly starve a lock of progress). */
const SAFETY_CHECKS: readonly CheckName[] = ['mutual-exclusion', 'fencing', 'duplicates'];

/** The safety check a run broke, in the checker's words; null when safety held (or could not be judged). */
export function safetyBroken(verdict: Verdict): string | null {
  return safetyBrokenSaid(verdict)?.message ?? null;
}

/** `safetyBroken`, with the sentence as data. */
export function safetyBrokenSaid(verdict: Verdict): Reason | null {
  for (const check of SAFETY_CHECKS) {
    const result = verdict.checks[check];
    if (!result.applicable || result.valid !== 'violated') continue;
    const mechanism = mechanismSaid(verdict);
    if (mechanism) return mechanism;
    const example = result.counterExample ?? verdict.counterExample;
    // ICU select keys are words: the check's name in camelCase.
    return example ? fromChecker(example) : say('grading.checkViolated', { check: check === 'mutual-exclusion' ? 'mutualExclusion' : check });
  }
  return null;
}
