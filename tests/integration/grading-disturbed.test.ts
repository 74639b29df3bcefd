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
import { DISTURBED_PLAYS } from '@/server/grading/disturbance';
import { gradeExercise } from '@/server/grading/grader';
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

it('a wrong answer that fails only while the machine is busy is "not decided", never failed; its failing run is played again', { timeout: 240_000 }, async () => {
  const ended: string[] = [];
  for (const lane of [runs, ...spares]) lane.on('ended', (e) => ended.push(e.runId));
  const starter = programSource(lesson, lesson.exercise.knownWrong);
  const result = await gradeExercise(lesson, starter, runs, undefined, spares, () => true);
  expect(result.passed).toBe(false);
  expect(result.failure).toBeNull();
  expect(result.busy).toMatch(/too busy to judge this fairly/);
  // The first failing item was played DISTURBED_PLAYS times in all (the grader goes on through the plan
  // first, so more runs than that ended).
  const failing = result.runs.filter((r) => !r.passed);
  expect(failing.length).toBeGreaterThan(0);
  expect(ended.length).toBeGreaterThanOrEqual(result.total + DISTURBED_PLAYS - 1);
  // A pass is never discounted: the items the starter does pass count as passed, disturbed or not.
  expect(result.runs.filter((r) => r.passed).length).toBeGreaterThan(0);
});
// The same answer on a quiet machine is rejected with what broke, and the reference solution passes:
// tests/integration/lessons/ grades both for every lesson.
