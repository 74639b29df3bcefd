/**
 * Lesson 8's experiment against real nodes: its four variants played as runs
 * in one lab, each row filled from the run's history and the checker's
 * verdict — the links really delayed, duplicates really counted — and a Stop
 * in the middle ends it with the rows done so far.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CALENDAR, LINK_DELAY, VARIANTS, type ExperimentProgress } from '@/lib/experiment/design';
import { cancelExperiment, runExperiment } from '@/server/experiment/experiment';
import { Lab } from '@/server/lab/lab';
import { LabRuns } from '@/server/runs/lab-runs';
import { useSandboxPool } from './lab-fixture';

describe('the experiment', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-experiment-'));
  const pool = useSandboxPool();
  const labs: Lab[] = [];
  afterAll(async () => {
    await Promise.all(labs.map((l) => l.destroy()));
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const newLab = async (): Promise<{ lab: Lab; runs: LabRuns }> => {
    const lab = new Lab({ topology: { kind: 'masters', nodes: 5, persistence: 'none' }, clients: 3, dir: path.join(dir, `lab-${labs.length}`) });
    labs.push(lab);
    await lab.start();
    return { lab, runs: new LabRuns(lab, pool()) };
  };

  it('plays every variant as a run and fills each row from its history and verdict', { timeout: 120_000 }, async () => {
    const { lab, runs } = await newLab();
    const progress: ExperimentProgress[] = [];
    const result = await runExperiment(runs, { seed: 17 }, (p) => progress.push(p));
    expect(result.cancelled).toBe(false);
    expect(result.rows.map((r) => r.variant)).toEqual(VARIANTS.map((v) => v.id));
    // The table fills row by row: each variant was announced with the rows before it.
    expect(progress.map((p) => p.playing)).toEqual([...VARIANTS.map((v) => v.id), null]);
    expect(progress.map((p) => p.rows.length)).toEqual([0, 1, 2, 3, 4]);

    const [none, single, redlock, loopback] = result.rows;
    // Without a lock all five workers send the invoices every morning: four duplicates a day, as the write-up saw.
    expect(none!.acquire).toBeNull();
    expect(none!.days).toBe(CALENDAR.days);
    expect(none!.executions).toBe(CALENDAR.days * CALENDAR.workers);
    expect(none!.duplicates).toBe(CALENDAR.days * (CALENDAR.workers - 1));
    for (const row of [single!, redlock!, loopback!]) {
      expect(row.status).toBe('complete');
      // Every worker tried every morning, and all but the winner (if any) were refused.
      expect(row.acquire!.count).toBe(CALENDAR.days * CALENDAR.workers);
      expect(row.refused).toBe(row.acquire!.count - row.executions);
      expect(row.acquire!.p50).toBeLessThanOrEqual(row.acquire!.p95);
      expect(row.acquire!.p95).toBeLessThanOrEqual(row.acquire!.p99);
      expect(row.acquire!.p99).toBeLessThanOrEqual(row.acquire!.max);
      expect(row.executions).toBe(row.daysRun + row.duplicates);
    }
    // Each link holds every message at least 0.4 ms each way, and a Redlock round waits for three answers: no
    // acquire over delayed links can be faster than one round trip through them.
    expect(redlock!.acquire!.p50).toBeGreaterThanOrEqual(2 * LINK_DELAY.delayMs);

    // Every link was delayed before the delayed variants' runs, and set back to no delay before the last one's.
    const steps = (runId: string) => runs.historyOf(runId).flatMap((e) => (e.type === 'scenario' && e.step === 'link-delay' ? [e.detail] : []));
    expect(steps(redlock!.runId)).toHaveLength(CALENDAR.workers * 5);
    expect(steps(redlock!.runId).every((d) => d.endsWith('by 0.4 ms (+ up to 0.4 ms)'))).toBe(true);
    expect(steps(loopback!.runId).every((d) => d.endsWith('by 0 ms'))).toBe(true);
    const delays = lab.history.since(0).filter((e) => e.type === 'nemesis' && e.op === 'link-delay');
    expect(delays.filter((e) => e.type === 'nemesis' && e.phase === 'ok')).toHaveLength(VARIANTS.length * CALENDAR.workers * 5);
    expect(delays.filter((e) => e.type === 'nemesis' && e.phase === 'fail')).toEqual([]);
  });

  it('ends at a Stop with the rows done so far', { timeout: 60_000 }, async () => {
    const { runs } = await newLab();
    let stopped = false;
    const result = await runExperiment(runs, { seed: 3 }, (p) => {
      // Stop while the second variant plays.
      if (p.playing === 'single-node' && !stopped) {
        stopped = true;
        runs.once('started', () => cancelExperiment(runs));
      }
    });
    expect(result.cancelled).toBe(true);
    expect(result.rows.map((r) => r.variant)).toEqual(['no-lock']);
  });
});
