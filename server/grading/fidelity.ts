/**
 * Does each lesson's scenario show what it promises, run after run? A trial
 * runs one scenario's program under many seeds in a real lab and counts the
 * runs whose verdict meets the scenario's expectation (`unmetExpectation`: a
 * break counts only when its expected diagnosis is the verdict's root cause,
 * the one its headline names — not merely one diagnosis among others). `npm run fidelity`
 * prints these counts for every lesson; the tests run a few seeds of each.
 */
import path from 'node:path';
import { unmetExpectation } from '@/lib/checker';
import type { Adversary, Lesson, LessonScenario } from '@/lib/lessons/load';
import type { RunEnded } from '@/lib/run';
import { Lab } from '../lab/lab';
import { LabRuns } from '../runs/lab-runs';
import type { SandboxPool } from '../sandbox';
import { disturbed, playWhileDisturbed } from './disturbance';
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
  /** Runs played again because the machine kept the lab waiting for a CPU (disturbance.ts). */
  replayed?: number;
  /** Seeds whose every play the machine disturbed: neither met nor missed. */
  undecided?: number;
}

/** Runs `entry` under each seed, one after another, in one lab restored before every run. */
export async function trialScenario(
  lesson: Lesson,
  entry: LessonScenario,
  seeds: readonly number[],
  pool: SandboxPool,
  dir: string,
  onRun: (ended: RunEnded, seed: number, why: string | null) => void = () => undefined,
  /** Stop once this many runs met the expectation (the lesson tests need 2 breaks of 3, not 3). */
  enough: number = Infinity,
): Promise<TrialResult> {
  const lab = new Lab({ topology: lesson.topology, clients: entry.scenario.clients, dir: path.join(dir, `${lesson.slug}-${entry.id}`) });
  await lab.start();
  const runs = new LabRuns(lab, pool);
  const result: TrialResult = { lesson: lesson.slug, scenario: entry.id, role: entry.role, runs: 0, met: 0, misses: [] };
  try {
    result.replayed = 0;
    result.undecided = 0;
    const play = async (seed: number): Promise<RunEnded> => {
      const info = await runs.start({
        code: entry.code,
        scenario: { ...entry.scenario, seed },
        topology: lesson.topology,
        fresh: true,
        checker: { ...lesson.checker, ...entry.checker },
      });
      return runs.whenEnded(info.runId);
    };
    for (const seed of seeds) {
      // As the grader does: a run the machine held up shows nothing either way, and is played again.
      const settled = await playWhileDisturbed(await play(seed), disturbed, () => play(seed));
      if (settled === null) continue; // never: these plays are not stopped
      result.replayed += settled.plays - 1;
      const ended = settled.last;
      if (disturbed(ended)) {
        result.undecided++;
        continue;
      }
      const why = ended.outcome.status === 'completed' ? unmetExpectation(ended.verdict, entry.expect) : `the run ended as ${ended.outcome.status}: ${ended.outcome.error ?? ''}`;
      result.runs++;
      if (why === null) result.met++;
      else if (result.misses.length < 5) result.misses.push({ seed, why });
      onRun(ended, seed, why);
      if (result.met >= enough) break;
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
    result.replayed = 0;
    result.undecided = 0;
    const code = planned.program.code;
    const play = async (seed: number) => {
      const info = await runs.start({ code, scenario: { ...planned.scenario, seed }, topology: lesson.topology, fresh: true, checker: planned.checker });
      const ended = await runs.whenEnded(info.runId);
      return { ended, failed: judge(planned, ended, lesson.exercise.liveness.minCompletedExecutions, () => runs.historyOf(info.runId), info.startedAt) };
    };
    // As the grader does: a play while the machine held the lab up counts neither way, and is played again.
    const busyPlay = (p: Awaited<ReturnType<typeof play>>) => disturbed(p.ended);
    for (const seed of seeds) {
      const settled = await playWhileDisturbed(await play(seed), busyPlay, () => play(seed));
      if (settled === null) continue; // never: these plays are not stopped
      const { last, plays } = settled;
      result.replayed += plays - 1;
      if (busyPlay(last)) {
        result.undecided++;
        continue;
      }
      const met = role === 'fix' ? last.failed === null : last.failed !== null;
      result.runs++;
      if (met) result.met++;
      else if (result.misses.length < 5) result.misses.push({ seed, why: `${last.failed ?? 'the adversary did not reject it'} [CPU wait ${last.ended.cpuWaitMs ?? '?'} ms]` });
    }
  } finally {
    await lab.destroy();
  }
  return result;
}
