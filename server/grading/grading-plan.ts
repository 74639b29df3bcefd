/**
 * What "Check my solution" runs, in order: the exercise's adversaries first
 * (decisive, and the hidden ones cannot be fitted to), then its visible
 * scenarios under each seed, then a few random schedules from the lesson's
 * fault space (what nobody thought to aim at). Each run carries how it is to
 * be judged (`judge.ts`).
 */
import type { VerdictExpectation } from '@/lib/checker';
import type { Adversary, Lesson } from '@/lib/lessons/load';
import type { RunStartInput } from '@/lib/run';
import type { Scenario } from '@/lib/scenario';
import type { Words } from '@/lib/words';
import { describeSchedule, generateSchedule } from '@/lib/schedules';
import { probeProgram } from './probe-program';

/** One run of the plan: what to run, and how to judge it. */
export interface PlannedRun {
  id: string;
  title: string;
  hidden: boolean;
  seed: number;
  scenario: Scenario;
  checker: NonNullable<RunStartInput['checker']>;
  /** The program to run, or why the learner's code cannot be made into one. */
  /** A probe program that could not be built: why, with the words learner-declarations.ts gives it. */
  program: { ok: true; code: string } | { ok: false; error: string; words?: Words };
  /** A probe is judged by its assertions (and `expect` when given); a scenario by the liveness bound too. */
  probe: boolean;
  /** A random schedule is judged on safety alone: it may rightly starve the lock of progress. */
  random: boolean;
  /** One of the lesson's adversaries: aimed at one bug, its failure is decisive without waiting for other items. */
  targeted: boolean;
  /** The exercise's function, for the words of a probe's failure. */
  exercise: string;
  expect: VerdictExpectation | null;
  trace: string | null;
  /** A command order the traced call must keep (`follows` in the adversary's file). */
  follows: { after: string; command: string; why: string } | null;
}

/** The whole plan for `code`: adversaries, then scenarios × seeds, then random schedules. */
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
        targeted: false,
        exercise: exercise.function,
        expect: entry.expect,
        trace: null,
        follows: null,
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
      targeted: false,
      exercise: exercise.function,
      expect: null,
      trace: null,
      follows: null,
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
    targeted: true,
    exercise: lesson.exercise.function,
    expect: a.expect ?? (a.probeCode === null ? { verdict: 'held' } : null),
    trace: a.trace ?? null,
    follows: a.follows ?? null,
  };
}

