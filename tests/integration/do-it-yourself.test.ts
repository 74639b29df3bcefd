/**
 * "Do it yourself" (issue 30) against real redis-servers: lesson 5's task is its "a node restarts empty" break
 * done by hand. The run plays the break scenario without the kill and the restart and stops when Client 1 is
 * granted the lock; the faults the learner would press go in through applyFault, as a button's do (no scenario
 * line before them). Attribution credits the learner's restart only when it made the break; a fault that came
 * after the violation, or after the holder released, does not complete the task.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attributeBreak } from '@/lib/do-it-yourself/attribute';
import { handScenario } from '@/lib/do-it-yourself/task';
import { FAULT_INPUTS } from '@/lib/faults/inputs';
import { loadLesson, programSource, type Lesson } from '@/lib/lessons/load';
import type { RunInfo } from '@/lib/run';
import type { Scenario } from '@/lib/scenario';
import { Lab } from '@/server/lab/lab';
import { applyFault } from '@/server/nemesis/operations';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';

const lesson: Lesson = loadLesson(path.join(process.cwd(), 'lessons/05-redlock'));
const task = lesson.doItYourself!;
const ref = lesson.scenarios.find((s) => s.id === task.scenario)!;
const breakScenario = lesson.lessonScenarios.find((s) => s.id === task.scenario)!.scenario;
const code = programSource(lesson, ref.program);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-diy-'));
let pool: SandboxPool;
let lab: Lab;
let runs: LabRuns;
beforeAll(async () => {
  pool = createSandboxPool({ warmWorkers: 1 });
  lab = new Lab({ topology: lesson.topology, clients: breakScenario.clients, dir });
  await lab.start();
  runs = new LabRuns(lab, pool);
  await pool.whenWarm();
}, 60_000);
afterAll(async () => {
  await lab?.destroy();
  await pool?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What a learner's button does: the fault, straight on the lab (node faults need no running program). */
const kill = (node: number) => applyFault('node-kill', { lab, clients: null }, FAULT_INPUTS['node-kill'].parse({ node }));
const restart = (node: number) => applyFault('node-restart', { lab, clients: null }, FAULT_INPUTS['node-restart'].parse({ node }));

const events = (runId: string) => runs.historyOf(runId);
const stopped = (runId: string) => events(runId).some((e) => e.type === 'console' && e.client === 0 && e.words?.key === 'runNotes.breakpointHit');

async function start(scenario: Scenario, withBreakpoint: boolean): Promise<RunInfo> {
  // Every node up and empty, as the page's lab is when a run begins.
  for (const node of lab.nodes) if (lab.nodeView(node.id).state !== 'up') await restart(node.id);
  return runs.start({ code, scenario, checker: { ...lesson.checker, ...ref.checker }, ...(withBreakpoint ? { breakpoint: task.breakpoint } : {}) });
}

async function attribute(info: RunInfo) {
  const ended = await runs.whenEnded(info.runId);
  return { ended, said: attributeBreak({ history: lab.history.since(0), verdict: ended.verdict, runId: info.runId, startedAt: info.startedAt, diagnosis: ref.expect.diagnosis! }) };
}

describe('do it yourself: lesson 5, a node restarts empty', () => {
  it('the task is the break scenario without the two faults the learner does', () => {
    // Kept: Client 2 waits for Client 1's lock, Client 1's links to Nodes 4–5 are cut, and Client 1 is held in its job until Client 2 enters its own.
    expect(handScenario(breakScenario, task.byHand).steps.map((s) => s.action)).toEqual(['client-pause', 'client-resume', 'link-cut', 'link-cut', 'client-pause', 'client-resume']);
  });

  it('credits the learner’s restart of Node 3, made while Client 1 held the lock', { timeout: 90_000 }, async () => {
    const info = await start(handScenario(breakScenario, task.byHand), true);
    await expect.poll(() => stopped(info.runId), { timeout: 30_000 }).toBe(true);
    await kill(3);
    await restart(3);
    runs.setBreakpoint(null);
    runs.continueFromBreakpoint(false);
    const { ended, said } = await attribute(info);
    expect(ended.verdict.diagnoses.map((d) => d.kind)).toContain('restart-without-persistence');
    expect(said.outcome).toBe('done');
    expect(said.fault).toMatchObject({ op: 'node-restart', node: 3 });
    expect(said.holder).toBe(1);
    expect(said.words.key).toBe('workspace.doItYourself.outcome.done');
  });

  it('does not credit a fault that came after the violation: the scenario’s own restart broke it', { timeout: 90_000 }, async () => {
    const info = await start(breakScenario, false);
    // Client 2 inside its job while Client 1 still is: the violation, made by the scenario's steps.
    await expect.poll(() => events(info.runId).some((e) => e.type === 'job' && e.phase === 'enter' && e.client === 2), { timeout: 30_000 }).toBe(true);
    await kill(5);
    const { ended, said } = await attribute(info);
    expect(ended.verdict.diagnoses.map((d) => d.kind)).toContain('restart-without-persistence');
    expect(said.outcome).toBe('before-your-faults');
    expect(said.fault).toMatchObject({ op: 'node-kill', node: 5 });
  });

  it('does not credit faults made after Client 1 released the lock', { timeout: 90_000 }, async () => {
    const info = await start(handScenario(breakScenario, task.byHand), false);
    await expect.poll(() => events(info.runId).some((e) => e.type === 'lock' && e.event === 'released' && e.client === 1), { timeout: 30_000 }).toBe(true);
    await kill(3);
    await restart(3);
    const { said } = await attribute(info);
    expect(said.outcome).not.toBe('done');
  });
});
