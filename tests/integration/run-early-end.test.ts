/**
 * A run ends as soon as its outcome can no longer change (lesson 1's holder crash: the only holder crashed
 * and its key has no TTL), says so in its console and its outcome, and its verdict is the one the lesson
 * promises; a run that can still recover (the same crash with a TTL) goes on to its natural end, and so does
 * a run that did not ask to end early (the grader's and Explore's).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unmetExpectation } from '@/lib/checker';
import { loadAllLessons } from '@/lib/lessons/load';
import { Lab } from '@/server/lab/lab';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';

const lesson = loadAllLessons().find((l) => l.folder === '01-naive-lock');
if (!lesson) throw new Error('lesson 1 is missing');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-early-end-'));
let pool: SandboxPool;
beforeAll(async () => {
  pool = createSandboxPool({ warmWorkers: 1 });
  await pool.whenWarm();
});
afterAll(async () => {
  await pool?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function play(scenarioId: string, endWhenDecided = true) {
  const entry = lesson!.lessonScenarios.find((s) => s.id === scenarioId);
  if (!entry) throw new Error(`no scenario ${scenarioId}`);
  const lab = new Lab({ topology: lesson!.topology, clients: entry.scenario.clients, dir: path.join(dir, scenarioId) });
  await lab.start();
  try {
    const runs = new LabRuns(lab, pool);
    const info = await runs.start({ code: entry.code, scenario: entry.scenario, topology: lesson!.topology, fresh: true, checker: lesson!.checker }, { endWhenDecided });
    const ended = await runs.whenEnded(info.runId);
    const console = runs.historyOf(info.runId).flatMap((e) => (e.type === 'console' ? [e.text] : []));
    return { ended, console, expect: entry.expect };
  } finally {
    await lab.destroy();
  }
}

describe('ending a run early', () => {
  it('ends the holder-crash run once nobody can ever take the lock, and says why', { timeout: 60_000 }, async () => {
    const { ended, console, expect: promise } = await play('holder-crash');
    expect(ended.outcome.status, ended.outcome.error).toBe('decided');
    expect(ended.outcome.error).toMatch(/Client 1 crashed holding 'lock:send-invoices', whose key has no TTL/);
    expect(console.some((line) => line.startsWith('The run was ended early: its outcome could no longer change ('))).toBe(true);
    // The clients still waiting were stopped before they gave up by themselves: the rest would have been the same failure.
    expect(console.some((line) => /gave up waiting/.test(line))).toBe(false);
    expect(ended.verdict.final).toBe(true);
    expect(unmetExpectation(ended.verdict, promise)).toBeNull();
  });

  it('never ends a run that did not ask for it (a graded probe, a random schedule: judged by more than the verdict)', { timeout: 60_000 }, async () => {
    const { ended, console } = await play('holder-crash', false);
    expect(ended.outcome.status, ended.outcome.error).toBe('completed');
    expect(console.some((line) => line.startsWith('The run was ended early'))).toBe(false);
    expect(console.some((line) => /gave up waiting/.test(line))).toBe(true);
  });

  it('lets the same crash with a TTL run to its end: that lock frees', { timeout: 60_000 }, async () => {
    const { ended, console } = await play('holder-crash-ttl');
    expect(ended.outcome.status, ended.outcome.error).toBe('completed');
    expect(console.some((line) => line.startsWith('The run was ended early'))).toBe(false);
    expect(ended.verdict.valid).toBe('held');
  });
});
