/**
 * "Check my solution": the learner's program against the exercise's
 * adversaries first — probes that call the learner's function where a wrong
 * one fails, and scenarios aimed at the moments that matter, some of them
 * hidden — then against the exercise's scenarios under each of its seeds, in
 * the learner's own lab (so they watch it happen). Each run is held to what
 * it promises: every verdict holds, enough work got done, the scenario's
 * `expect` is met and a probe's own assertions pass. Grading stops at the
 * first failure, whose counter-example is what the learner needs next.
 */
import { unmetExpectation, type CounterExample, type DiagnosisKind, type Verdict, type VerdictExpectation } from '@/lib/checker';
import type { GradeProgress, GradeResult, GradedRun } from '@/lib/grading';
import type { Adversary, Lesson } from '@/lib/lessons/load';
import { LabOperationError } from '@/lib/result';
import type { RunEnded, RunStartInput } from '@/lib/run';
import type { Scenario } from '@/lib/scenario';
import type { LabRuns } from '../runs/lab-runs';
import { describeSchedule, generateSchedule } from '@/lib/schedules';
import { callWindow, splitCallWords } from './command-trace';
import { safetyBroken } from './explore';
import { probeFailure, probeProgram } from './probe-program';

/**
 * Diagnoses that name a bug in the code whatever the timing — a lock key left without a TTL, a check-then-set,
 * a Redlock grant without a majority: a graded run that shows one fails even when, this time, nobody else
 * happened to be hurt by it. Diagnoses about timing (a pause, a slow section) only explain a verdict: a busy
 * machine must never fail a right answer. A release that deleted another's lock is not here: lesson 1's given
 * release is a plain DEL on purpose (lesson 2's subject), and lesson 2's probes catch it in the learner's own.
 */
const FATAL_DIAGNOSES: readonly DiagnosisKind[] = ['lock-without-ttl-never-frees', 'check-then-set-race', 'acquired-without-quorum'];

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
function explainingCounterExample(verdict: Verdict): CounterExample | null {
  const fencing = verdict.checks.fencing;
  if (fencing.applicable && fencing.valid === 'violated' && fencing.counterExample) return fencing.counterExample;
  return verdict.counterExample;
}

function completedExecutions(verdict: Verdict): number {
  return verdict.stats.jobs.reduce((sum, job) => sum + job.completed, 0);
}

/** One run of the plan: what to run, and how to judge it. */
export interface PlannedRun {
  id: string;
  title: string;
  hidden: boolean;
  seed: number;
  scenario: Scenario;
  checker: NonNullable<RunStartInput['checker']>;
  /** The program to run, or why the learner's code cannot be made into one. */
  program: { ok: true; code: string } | { ok: false; error: string };
  /** A probe is judged by its assertions (and `expect` when given); a scenario by the liveness bound too. */
  probe: boolean;
  /** A random schedule is judged on safety alone: it may rightly starve the lock of progress. */
  random: boolean;
  /** The exercise's function, for the words of a probe's failure. */
  exercise: string;
  expect: VerdictExpectation | null;
  trace: string | null;
}

/**
 * Adversaries first (decisive, and the hidden ones cannot be fitted to), then the visible scenarios × seeds,
 * then a few random schedules from the lesson's fault space (Jepsen's generator: what nobody thought to aim at).
 */
export function gradingPlan(lesson: Lesson, code: string): PlannedRun[] {
  const { exercise } = lesson;
  const livenessBoundMs = exercise.liveness.boundMs;
  const adversaries = lesson.adversaries.map((a) => adversaryRun(lesson, a, code));
  const scenarios = exercise.scenarios.flatMap((id) => {
    const entry = lesson.lessonScenarios.find((s) => s.id === id);
    if (!entry) throw new Error(`lesson ${lesson.slug}: exercise scenario "${id}" is missing`);
    return exercise.seeds.map(
      (seed): PlannedRun => ({
        id: entry.id,
        title: entry.scenario.title,
        hidden: false,
        seed,
        scenario: { ...entry.scenario, seed },
        checker: { ...lesson.checker, ...entry.checker, livenessBoundMs },
        program: { ok: true, code },
        probe: false,
        random: false,
        exercise: exercise.function,
        expect: entry.expect,
        trace: null,
      }),
    );
  });
  const random = exercise.randomSchedules.map((seed, i): PlannedRun => {
    const scenario = generateSchedule(lesson.explore, lesson.topology, seed);
    return {
      id: scenario.id,
      title: `a random schedule of faults (${i + 1} of ${exercise.randomSchedules.length}): ${describeSchedule(scenario).join('; ') || 'no fault'}`,
      hidden: true,
      seed,
      scenario,
      checker: { ...lesson.checker, livenessBoundMs },
      program: { ok: true, code },
      probe: false,
      random: true,
      exercise: exercise.function,
      expect: null,
      trace: null,
    };
  });
  return [...adversaries, ...scenarios, ...random];
}

/** One adversary of the lesson as a run of the plan (also what `npm run fidelity` plays many times). */
export function adversaryRun(lesson: Lesson, a: Adversary, code: string): PlannedRun {
  return {
    id: a.id,
    title: a.title,
    hidden: a.hidden,
    seed: a.scenario.seed,
    scenario: a.scenario,
    checker: { ...lesson.checker, ...a.checker, livenessBoundMs: lesson.exercise.liveness.boundMs },
    program: a.probeCode === null ? { ok: true, code } : probeProgram(code, a.probeCode),
    probe: a.probeCode !== null,
    random: false,
    exercise: lesson.exercise.function,
    expect: a.expect ?? (a.probeCode === null ? { verdict: 'held' } : null),
    trace: a.trace ?? null,
  };
}

/** Why this run of the plan failed, in the learner's words, or null. */
export function judge(planned: PlannedRun, ended: RunEnded, minCompleted: number, events: () => Parameters<typeof splitCallWords>[0], origin: number): string | null {
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

/** What one run of the plan came to. */
interface Graded {
  run: GradedRun;
  result: RunEnded | null;
}

/**
 * "Check my solution". `spares` are extra labs the grader may use at once (the server lends them when it has
 * room): the plan's runs are dealt to the labs in order, and the first failure stops the rest. A failure seen
 * in a spare lab is played again in the learner's own lab, so the counter-example is on their timeline.
 */
export async function gradeExercise(
  lesson: Lesson,
  code: string,
  runs: LabRuns,
  onProgress: (progress: GradeProgress) => void = () => undefined,
  spares: readonly LabRuns[] = [],
): Promise<GradeResult> {
  const plan = gradingPlan(lesson, code);
  const minCompleted = lesson.exercise.liveness.minCompletedExecutions;
  const hiddenTotal = plan.filter((p) => p.hidden).length;
  const shown = plan.map((planned, index) => {
    const hiddenIndex = plan.slice(0, index + 1).filter((p) => p.hidden).length;
    // A hidden check is named only once it fails: its title says what it goes after.
    return planned.hidden ? { id: 'hidden', title: `Hidden check ${hiddenIndex} of ${hiddenTotal}` } : { id: planned.id, title: planned.title };
  });
  const lanes = [runs, ...spares];
  const done: (Graded | undefined)[] = new Array(plan.length);
  let next = 0;
  let finished = 0;
  let failedAt: number | null = null;
  const aborted = new Set<LabRuns>();

  const runItem = async (index: number, lane: LabRuns): Promise<Graded | null> => {
    const planned = plan[index]!;
    const kind = { hidden: planned.hidden, probe: planned.probe };
    if (!planned.program.ok) {
      return { run: { scenarioId: planned.id, scenarioTitle: planned.title, ...kind, seed: planned.seed, runId: '', passed: false, reason: planned.program.error }, result: null };
    }
    const info = await lane.start({ code: planned.program.code, scenario: planned.scenario, topology: lesson.topology, fresh: true, checker: planned.checker });
    const result = await lane.whenEnded(info.runId);
    if (result.outcome.status === 'stopped') {
      if (aborted.has(lane)) return null; // stopped by the grader: another lab found the failure first
      throw new LabOperationError('conflict', 'A graded run was stopped (another run started?), so checking stopped. Press "Check my solution" again.');
    }
    const reason = judge(planned, result, minCompleted, () => lane.historyOf(info.runId), info.startedAt);
    const run: GradedRun = reason
      ? { scenarioId: planned.id, scenarioTitle: planned.title, ...kind, seed: planned.seed, runId: info.runId, passed: false, reason }
      : { scenarioId: shown[index]!.id, scenarioTitle: shown[index]!.title, ...kind, seed: planned.seed, runId: info.runId, passed: true };
    return { run, result };
  };

  const lane = async (labRuns: LabRuns): Promise<void> => {
    while (failedAt === null && next < plan.length) {
      const index = next++;
      if (labRuns === runs) onProgress({ slug: lesson.slug, done: finished, total: plan.length, current: { scenarioId: shown[index]!.id, seed: plan[index]!.seed, title: shown[index]!.title } });
      const graded = await runItem(index, labRuns);
      if (graded === null) return;
      done[index] = graded;
      finished++;
      if (!graded.run.passed && (failedAt === null || index < failedAt)) {
        failedAt = index;
        for (const other of lanes) {
          if (other === labRuns) continue;
          aborted.add(other);
          void other.stop();
        }
      }
    }
  };
  await Promise.all(lanes.map(lane));

  if (failedAt === null) {
    const graded = done.filter((g): g is Graded => g !== undefined).map((g) => g.run);
    onProgress({ slug: lesson.slug, done: plan.length, total: plan.length, current: null });
    return { slug: lesson.slug, passed: true, total: plan.length, runs: graded, failure: null };
  }
  let failure = done[failedAt]!;
  let elsewhere = false;
  // Seen in a spare lab: play it again where the learner watches, and show that run if it fails there too.
  if (failure.result && !(await ranIn(runs, failure.run.runId))) {
    aborted.delete(runs);
    const replay = await runItem(failedAt, runs);
    if (replay && !replay.run.passed) failure = replay;
    else {
      // Still a failure — a wrong lock must not pass — but the learner's timeline does not have it: say so.
      elsewhere = true;
      failure = { ...failure, run: { ...failure.run, reason: `${failure.run.reason ?? 'it failed'} (This happened in a lab beside yours; played again in yours, it held this time: the failure depends on timing, which is what makes it dangerous.)` } };
    }
  }
  const graded = done.slice(0, failedAt).filter((g): g is Graded => g !== undefined).map((g) => g.run);
  graded.push(failure.run);
  const counterExample = failure.result && !elsewhere ? explainingCounterExample(failure.result.verdict) : null;
  // A probe's failure has no checker counter-example: point the timeline at the call it was about.
  const window = counterExample === null && !elsewhere && failure.run.runId && (await ranIn(runs, failure.run.runId)) ? callWindow(runs.historyOf(failure.run.runId), plan[failedAt]!.trace) : null;
  onProgress({ slug: lesson.slug, done: graded.length, total: plan.length, current: null });
  return {
    slug: lesson.slug,
    passed: false,
    total: plan.length,
    runs: graded,
    failure: { runId: failure.run.runId, counterExample, ...(window ? { window } : {}), message: failure.run.reason ?? 'failed', hint: lesson.hints[0] ?? null },
  };
}

/** Whether the run was one of this lab's (its last run, or the one going on). */
async function ranIn(runs: LabRuns, runId: string): Promise<boolean> {
  return runs.whenEnded(runId).then(
    () => true,
    () => false,
  );
}
