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
import type { Locale } from '@/i18n/routing';
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
  /** A probe's sentences in English (the adversary's `says`). */
  says: Readonly<Record<string, string>>;
  /** Its words in the language the check was asked in: only words, never what runs or how it is judged. */
  words: PlannedWords;
}

export interface PlannedWords {
  locale: Locale;
  title: string;
  says: Readonly<Record<string, string>>;
  followsWhy: string | null;
}

/** The lesson whose words a check speaks: the English lesson itself, or the same lesson localized (lesson-words.ts). */
export interface LessonWords {
  locale: Locale;
  lesson: Lesson;
}

/** The whole plan for `code`: adversaries, then scenarios × seeds, then random schedules. */
export function gradingPlan(lesson: Lesson, code: string, shown: LessonWords = { locale: 'en', lesson }): PlannedRun[] {
  const { exercise } = lesson;
  const livenessBoundMs = exercise.liveness.boundMs;
  const adversaries = lesson.adversaries.map((a) => adversaryRun(lesson, a, code, { locale: shown.locale, adversary: shown.lesson.adversaries.find((own) => own.id === a.id) ?? a }));
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
        says: {},
        words: { locale: shown.locale, title: shown.lesson.lessonScenarios.find((own) => own.id === entry.id)?.scenario.title ?? entry.scenario.title, says: {}, followsWhy: null },
      }),
    );
  });
  const random = exercise.randomSchedules.map((seed, i): PlannedRun => {
    const scenario = generateSchedule(lesson.explore, lesson.topology, seed);
    const title = `a random schedule of faults (${i + 1} of ${exercise.randomSchedules.length}): ${describeSchedule(scenario).join('; ') || 'no fault'}`;
    return {
      id: scenario.id,
      title,
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
      says: {},
      // Written by the schedule's generator, in English (not a lesson's words).
      words: { locale: shown.locale, title, says: {}, followsWhy: null },
    };
  });
  return [...adversaries, ...scenarios, ...random];
}

/** One adversary of the lesson as a run of the plan (also what `npm run fidelity` plays many times). */
export function adversaryRun(lesson: Lesson, a: Adversary, code: string, shown: { locale: Locale; adversary: Adversary } = { locale: 'en', adversary: a }): PlannedRun {
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
    says: a.says,
    words: { locale: shown.locale, title: shown.adversary.title, says: shown.adversary.says, followsWhy: shown.adversary.follows?.why ?? null },
  };
}

