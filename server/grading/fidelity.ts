/**
 * Does each lesson's scenario show what it promises, run after run? A trial
 * runs one scenario's program under many seeds in a real lab and counts the
 * runs whose verdict meets the scenario's expectation. `npm run fidelity`
 * prints these counts for every lesson; the tests run a few seeds of each.
 */
import path from 'node:path';
import { unmetExpectation } from '@/lib/checker';
import type { Adversary, Lesson, LessonScenario } from '@/lib/lessons/load';
import type { RunEnded } from '@/lib/run';
import { Lab } from '../lab/lab';
import { LabRuns } from '../runs/lab-runs';
import type { SandboxPool } from '../sandbox';
import { adversaryRun } from './grading-plan';
import { judge } from './judge';

export interface TrialResult {
  lesson: string;
  scenario: string;
  role: LessonScenario['role'] | 'break' | 'fix';
  runs: number;
  met: number;
  /** The first few misses, for the author: seed and why. */
  misses: { seed: number; why: string }[];
}

/** Runs `entry` under each seed, one after another, in one lab restored before every run. */
export async function trialScenario(
  lesson: Lesson,
  entry: LessonScenario,
  seeds: readonly number[],
  pool: SandboxPool,
  dir: string,
  onRun: (ended: RunEnded, seed: number, why: string | null) => void = () => undefined,
): Promise<TrialResult> {
  const lab = new Lab({ topology: lesson.topology, clients: entry.scenario.clients, dir: path.join(dir, `${lesson.slug}-${entry.id}`) });
  await lab.start();
  const runs = new LabRuns(lab, pool);
  const result: TrialResult = { lesson: lesson.slug, scenario: entry.id, role: entry.role, runs: 0, met: 0, misses: [] };
  try {
    for (const seed of seeds) {
      const info = await runs.start({
        code: entry.code,
        scenario: { ...entry.scenario, seed },
        topology: lesson.topology,
        fresh: true,
        checker: { ...lesson.checker, ...entry.checker },
      });
      const ended = await runs.whenEnded(info.runId);
      const why = ended.outcome.status === 'completed' ? unmetExpectation(ended.verdict, entry.expect) : `the run ended as ${ended.outcome.status}: ${ended.outcome.error ?? ''}`;
      result.runs++;
      if (why === null) result.met++;
      else if (result.misses.length < 5) result.misses.push({ seed, why });
      onRun(ended, seed, why);
    }
  } finally {
    await lab.destroy();
  }
  return result;
}

export const seedsFrom = (first: number, count: number): number[] => Array.from({ length: count }, (_, i) => first + i);

/**
 * An adversary under many seeds: with the reference solution (role `fix`: every run must pass) or with a wrong
 * answer it is aimed at (role `break`: the run must fail). Judged exactly as "Check my solution" judges it.
 */
export async function trialAdversary(
  lesson: Lesson,
  adversary: Adversary,
  program: { name: string; code: string },
  role: 'fix' | 'break',
  seeds: readonly number[],
  pool: SandboxPool,
  dir: string,
): Promise<TrialResult> {
  const planned = adversaryRun(lesson, adversary, program.code);
  const lab = new Lab({ topology: lesson.topology, clients: adversary.scenario.clients, dir: path.join(dir, `${lesson.slug}-${adversary.id}-${program.name}`) });
  await lab.start();
  const runs = new LabRuns(lab, pool);
  const result: TrialResult = { lesson: lesson.slug, scenario: `${adversary.id} × ${program.name}`, role, runs: 0, met: 0, misses: [] };
  try {
    if (!planned.program.ok) throw new Error(planned.program.error);
    for (const seed of seeds) {
      const info = await runs.start({ code: planned.program.code, scenario: { ...planned.scenario, seed }, topology: lesson.topology, fresh: true, checker: planned.checker });
      const ended = await runs.whenEnded(info.runId);
      const failed = judge(planned, ended, lesson.exercise.liveness.minCompletedExecutions, () => runs.historyOf(info.runId), info.startedAt);
      const met = role === 'fix' ? failed === null : failed !== null;
      result.runs++;
      if (met) result.met++;
      else if (result.misses.length < 5) result.misses.push({ seed, why: failed ?? 'the adversary did not reject it' });
    }
  } finally {
    await lab.destroy();
  }
  return result;
}
