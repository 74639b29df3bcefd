/**
 * Whether a graded run kept its promise, and if not, why — in the learner's
 * words: a probe's own sentence, the learner's error, the checker's
 * counter-example (the one that explains most), a scenario's `expect`, the
 * work that had to get done, or, for a random schedule, safety alone.
 */
import { unmetExpectation, type CheckName, type CounterExample, type DiagnosisKind, type Verdict, type VerdictExpectation } from '@/lib/checker';
import type { HistoryEvent } from '@/lib/history';
import type { RunEnded } from '@/lib/run';
import { missingFollower, splitCallWords } from './command-trace';
import type { PlannedRun } from './grading-plan';
import { probeFailure } from './probe-program';

/**
 * Diagnoses that name a bug in the code whatever the timing — a lock key left without a TTL, a check-then-set,
 * a Redlock grant without a majority (by the module's votes, or a hand-written quorum two sides of a split both
 * reached): a graded run that shows one fails even when, this time, nobody else happened to be hurt by it. Diagnoses about timing (a pause, a slow section) only explain a verdict: a busy
 * machine must never fail a right answer. A release that deleted another's lock is not here: lesson 1's given
 * release is a plain DEL on purpose (lesson 2's subject), and lesson 2's probes catch it in the learner's own.
 */
const FATAL_DIAGNOSES: readonly DiagnosisKind[] = ['lock-without-ttl-never-frees', 'check-then-set-race', 'acquired-without-quorum', 'quorum-not-majority'];

/** The program did not compile, or one of its clients failed by its own doing (an error, a limit, a timeout). */
function crashReason(ended: RunEnded): string | null {
  const { outcome } = ended;
  if (outcome.status === 'syntax-error') return `the program does not compile: ${outcome.error ?? 'syntax error'}`;
  const crashedByCode = outcome.clients.find((c) => c.status === 'error' || c.status === 'limit' || c.status === 'timeout');
  if (crashedByCode) return `Client ${crashedByCode.client} ended with ${crashedByCode.status}: ${crashedByCode.error ?? ''}`.trim();
  return null;
}

/** Why a graded run failed, or null when it passed. */
export function failureReason(ended: RunEnded, minCompleted: number): string | null {
  const { verdict } = ended;
  const crashed = crashReason(ended);
  if (crashed) return crashed;
  const fatal = verdict.diagnoses.find((d) => FATAL_DIAGNOSES.includes(d.kind));
  if (fatal) return fatal.message;
  const completed = completedExecutions(verdict);
  if (verdict.valid === 'unknown' && completed === 0 && minCompleted > 0)
    return `no job ran to its end, so there was nothing to check: the program must take the lock and run the job inside it`;
  if (verdict.valid !== 'held') return explainingCounterExample(verdict)?.message ?? `the checker's verdict is ${verdict.valid}`;
  if (completed < minCompleted) return `only ${completed} of the ${minCompleted} job execution(s) this exercise needs completed: the lock must also let work happen`;
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

function completedExecutions(verdict: Verdict): number {
  return verdict.stats.jobs.reduce((sum, job) => sum + job.completed, 0);
}

/** Why this run of the plan failed, in the learner's words, or null. */
export function judge(planned: PlannedRun, ended: RunEnded, minCompleted: number, events: () => readonly HistoryEvent[], origin: number): string | null {
  const { outcome, verdict } = ended;
  const probeSaid = outcome.clients.map((c) => probeFailure(c.error)).find((said) => said !== null);
  let reason: string | null;
  if (probeSaid) reason = probeSaid;
  else if (planned.random) reason = safetyBroken(verdict);
  else if (planned.probe) {
    // A probe's verdict is its own assertions: it may run no job at all, so the checker may rightly say "unknown".
    reason = undefinedInProbe(ended, planned.exercise) ?? crashReason(ended);
    if (reason === null && planned.expect) reason = unmetWords(verdict, planned.expect);
  } else {
    reason = failureReason(ended, minCompleted);
    if (reason === null && planned.expect) reason = unmetWords(verdict, planned.expect);
  }
  // The command order, judged on the history: what the learner's call sent, whatever the timing did with it.
  if (reason === null && planned.follows && planned.trace) return missingFollower(events(), planned.trace, origin, planned.follows);
  if (reason === null) return null;
  const trace = planned.trace ? splitCallWords(events(), planned.trace, origin) : null;
  return trace ? `${reason} ${trace}` : reason;
}

/**
 * A probe runs the learner's declarations without their driver (everything from the first top-level `await`):
 * a function that reads a variable only the driver defines fails there, and the learner should learn why.
 */
function undefinedInProbe(ended: RunEnded, exercise: string): string | null {
  for (const client of ended.outcome.clients) {
    const name = /ReferenceError: '([^']+)' is not defined/.exec(client.error ?? '')?.[1];
    if (name)
      return (
        `${exercise}() uses '${name}', which your program defines only after its first await. The check calls ${exercise}() on its own, ` +
        `with your functions and set-up but without the main part of your program: its answer must come from its arguments, the clock and the set-up.`
      );
  }
  return null;
}

/** A scenario's promise not kept, in words: the checker's counter-example when there is one. */
function unmetWords(verdict: Verdict, expect: VerdictExpectation): string | null {
  const unmet = unmetExpectation(verdict, expect);
  if (unmet === null) return null;
  if (expect.savedByFencing && verdict.savedByFencing.count === 0)
    return 'the store never refused a stale write, though this scenario sends one: every write must carry the token of its grant, and the store must check it';
  return verdict.counterExample?.message ?? `the scenario expects ${expect.verdict}: ${unmet}`;
}

/** The checks a random schedule may break; liveness is not one of them (a random fault may rightly starve a lock of progress). */
const SAFETY_CHECKS: readonly CheckName[] = ['mutual-exclusion', 'fencing', 'duplicates'];

/** The safety check a run broke, in the checker's words; null when safety held (or could not be judged). */
export function safetyBroken(verdict: Verdict): string | null {
  for (const check of SAFETY_CHECKS) {
    const result = verdict.checks[check];
    if (result.applicable && result.valid === 'violated') return result.counterExample?.message ?? verdict.counterExample?.message ?? `the ${check} check was violated`;
  }
  return null;
}
