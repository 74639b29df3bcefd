/**
 * "Check my solution" on a machine that keeps the lab waiting for a CPU
 * (stood in for by a `disturbed` that says yes to every run): a failure is
 * played again, and a failure seen only in disturbed runs is never a fail —
 * the answer is "not decided". A pass is not discounted. Real lab, real
 * redis-server process, the lesson 1 exercise.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadAllLessons, programSource } from '@/lib/lessons/load';
import type { RunEnded } from '@/lib/run';
import { DISTURBED_PLAYS } from '@/server/grading/disturbance';
import { gradeExercise } from '@/server/grading/grader';
import { ItemDurations, itemKey } from '@/server/grading/plan-dealing';
import { Lab } from '@/server/lab/lab';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';

const lesson = loadAllLessons().find((l) => l.slug === 'naive-lock')!;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-disturbed-'));
let pool: SandboxPool;
// The learner's lab and two spares, as the server lends them: the plan plays three runs at a time.
let labs: Lab[] = [];
let runs: LabRuns;
let spares: LabRuns[];

beforeAll(async () => {
  pool = createSandboxPool({ warmWorkers: 1 });
  labs = ['own', 'spare-1', 'spare-2'].map((name) => new Lab({ topology: lesson.topology, clients: lesson.defaultClients, dir: path.join(dir, name) }));
  await Promise.all([pool.whenWarm(), ...labs.map((l) => l.start())]);
  [runs, ...spares] = labs.map((l) => new LabRuns(l, pool)) as [LabRuns, ...LabRuns[]];
});
afterAll(async () => {
  await Promise.all(labs.map((l) => l.destroy()));
  await pool?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('while every run is disturbed nothing is decided: a wrong answer is never failed, the reference solution never passed; the disturbed item is played again alone', { timeout: 240_000 }, async () => {
  const ended: string[] = [];
  const started: { lab: string; scenario: string | undefined }[] = [];
  for (const [i, lane] of [runs, ...spares].entries()) {
    lane.on('ended', (e) => ended.push(e.runId));
    lane.on('started', (info) => started.push({ lab: i === 0 ? 'own' : 'spare', scenario: info.scenario?.id }));
  }
  // The starter is wrong; the solution is right, and a pass in a disturbed run must not count for it either
  // (a probe whose moment slipped by on a starved machine passes a wrong lock the same way).
  for (const code of [programSource(lesson, lesson.exercise.knownWrong), lesson.solution]) {
    ended.length = 0;
    started.length = 0;
    const result = await gradeExercise(lesson, code, runs, undefined, spares, () => true);
    expect(result.passed).toBe(false);
    expect(result.failure).toBeNull();
    expect(result.busy).toMatch(/too busy to judge this fairly/);
    // One item was played DISTURBED_PLAYS times in all, the replays alone in the learner's lab; then the
    // check ended: with that item undecided it could not pass, and the busy machine was not loaded further.
    const ownPlays = new Map<string, number>();
    for (const s of started) if (s.lab === 'own') ownPlays.set(String(s.scenario), (ownPlays.get(String(s.scenario)) ?? 0) + 1);
    expect(Math.max(0, ...ownPlays.values()), JSON.stringify(started)).toBeGreaterThanOrEqual(DISTURBED_PLAYS - 1);
    expect(ended.length).toBeLessThan(result.total + DISTURBED_PLAYS - 1);
  }
});
// The same answer on a quiet machine is rejected with what broke, and the reference solution passes:
// tests/integration/lessons/ grades both for every lesson.

it('a failed targeted adversary is the answer at once, and the learner’s lab plays the longest one, so its failure needs no second play', { timeout: 240_000 }, async () => {
  const wrong = lesson.wrong.find((w) => w.name === 'setnx-then-pexpire')!;
  const crash = lesson.adversaries.find((a) => a.id === 'acquire-crash')!;
  // What this server learned of the items' lengths: the crash adversary is the longest.
  const durations = new ItemDurations();
  durations.learn(itemKey(lesson.slug, crash.id, crash.scenario.seed), 10_000);
  const ownRuns: string[] = [];
  const collect = (e: RunEnded) => ownRuns.push(e.runId);
  runs.on('ended', collect);
  try {
    const result = await gradeExercise(lesson, wrong.code, runs, undefined, spares, () => false, durations);
    expect(result.passed).toBe(false);
    expect(result.runs.at(-1)?.scenarioId, result.failure?.message).toBe('acquire-crash');
    // Played once, in the learner's own lab: the timeline shows the very run that failed.
    expect(ownRuns).toEqual([result.failure?.runId]);
    // Nothing past the answer was waited for: the plan stopped there. (The spare labs may have finished an item or
    // two of the plan's scenarios while the crash adversary waited out its lock's TTL; those count, the rest never ran.)
    expect(result.runs.length).toBeLessThan(result.total);
    expect(result.runs.filter((r) => !r.passed)).toHaveLength(1);
  } finally {
    runs.off('ended', collect);
  }
});
