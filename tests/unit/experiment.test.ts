/**
 * Lesson 8's experiment, the pure parts: acquire latencies read from a
 * hand-written history, a row from a run's end, the compressed calendar in
 * words, fractional link delays, and the browser's state as the rows arrive.
 */
import { describe, expect, it } from 'vitest';
import {
  emptyExperimentData,
  reduceExperimentAnswerLost,
  reduceExperimentFailed,
  reduceExperimentProgress,
  reduceExperimentRequested,
  reduceExperimentResult,
} from '@/components/lab/experiment-state';
import type { Verdict } from '@/lib/checker/types';
import { CALENDAR, COMPRESSION, VARIANTS, variantById, type ExperimentRow } from '@/lib/experiment/design';
import { experimentInputSchema } from '@/lib/experiment/input';
import { acquireTimes, experimentRow } from '@/lib/experiment/measure';
import { experimentProgram, experimentScenario, jobName } from '@/lib/experiment/program';
import { FAULT_INPUTS } from '@/lib/faults/inputs';
import type { HistoryEvent } from '@/lib/history';
import type { RunEnded } from '@/lib/run';

let seq = 0;
const at = <T extends Omit<HistoryEvent, 'seq'>>(event: T) => ({ ...event, seq: seq++ }) as unknown as HistoryEvent;
const lock = (client: number, t: number, event: 'attempt' | 'acquired' | 'failed', token = `tok${client}`, attempt = 1) =>
  at({ type: 'lock', t, client, event, resources: ['lock:redlock:send-invoices:day-1'], token, attempt });
const set = (opId: number, client: number, t: number, phase: 'invoke' | 'ok', reply?: string | null, key = 'k') =>
  phase === 'invoke'
    ? at({ type: 'redis', t, phase, opId, client, node: 1, command: 'SET', args: [key, 'v', 'PX', '1000', 'NX'] })
    : at({ type: 'redis', t, phase, opId, client, node: 1, command: 'SET', reply: reply ?? null });

describe('acquire times', () => {
  it('times each Redlock attempt from its start to its outcome, counting the refused', () => {
    const times = acquireTimes([
      lock(1, 100, 'attempt'),
      lock(2, 100.5, 'attempt'),
      // Redlock's own commands (on the key its lock events name) are not acquires of their own.
      set(7, 1, 100.6, 'invoke', undefined, 'lock:redlock:send-invoices:day-1'),
      set(7, 1, 101, 'ok', 'OK', 'lock:redlock:send-invoices:day-1'),
      lock(1, 103.25, 'acquired'),
      lock(2, 104.5, 'failed'),
      // Still open when the history ends: left out.
      lock(3, 105, 'attempt'),
    ]);
    expect(times).toEqual({ latencies: [3.25, 4], refused: 1 });
  });

  it('without lock events, times each SET … NX of a one-node lock; a nil reply is refused', () => {
    const times = acquireTimes([set(1, 1, 10, 'invoke'), set(2, 2, 10.5, 'invoke'), set(1, 1, 12, 'ok', 'OK'), set(2, 2, 13.5, 'ok', null)]);
    expect(times).toEqual({ latencies: [2, 3], refused: 1 });
  });
});

describe('a row', () => {
  const verdict = (jobs: { job: string; completed: number }[], duplicates: number) =>
    ({
      checks: { duplicates: { violations: duplicates } },
      stats: { jobs: jobs.map((j) => ({ ...j, runId: 'r1', incomplete: 0, open: 0, expected: 1 })) },
    }) as unknown as Verdict;
  const ended = (v: Verdict, status: RunEnded['outcome']['status'] = 'completed'): RunEnded => ({
    runId: 'r1',
    outcome: { runId: 'r1', status, clients: [1, 2].map((client) => ({ client, status: status === 'completed' ? 'exited' : 'stopped' })), durationMs: 2400 },
    verdict: v,
    cpuWaitMs: 12,
  });

  it("takes duplicates from the checker and percentiles from the acquires", () => {
    const v = verdict([{ job: jobName(1), completed: 2 }, { job: jobName(2), completed: 0 }, { job: 'other', completed: 5 }], 1);
    const row = experimentRow(variantById('redlock'), [lock(1, 0, 'attempt'), lock(1, 2, 'acquired')], ended(v));
    expect(row).toMatchObject({ variant: 'redlock', status: 'complete', note: null, days: CALENDAR.days, daysRun: 1, executions: 2, duplicates: 1, cpuWaitMs: 12, refused: 0 });
    expect(row.acquire).toMatchObject({ count: 1, p50: 2, p99: 2, max: 2 });
    expect(experimentRow(variantById('no-lock'), [], ended(v)).acquire).toBeNull();
  });

  it('says when a run was cut short, and counts only the days it reached', () => {
    const events = [at({ type: 'job', t: 5, phase: 'enter', client: 1, job: jobName(3), execution: 1 })];
    const row = experimentRow(variantById('no-lock'), events, ended(verdict([], 0), 'timeout'));
    expect(row.status).toBe('incomplete');
    expect(row.days).toBe(3);
    expect(row.note).toBe('Client 1 ended: stopped');
  });
});

describe('the design', () => {
  it('compresses a day 1,728,000 times, and sets every link of the delayed variants', () => {
    expect(COMPRESSION).toBe(1_728_000);
    const delayed = experimentScenario(variantById('redlock'), 5);
    expect(delayed.steps).toHaveLength(25);
    expect(delayed.steps.every((s) => s.action === 'link-delay' && s.at === 0 && s.delayMs === 0.4 && s.jitterMs === 0.4)).toBe(true);
    expect(experimentScenario(variantById('redlock-loopback'), 5).steps.every((s) => s.action === 'link-delay' && s.delayMs === 0)).toBe(true);
    for (const variant of VARIANTS) expect(experimentProgram(variant)).toContain(`"lock":"${variant.lock}"`);
  });

  it('takes a link delay in tenths of a millisecond, and an experiment input with a seed at most', () => {
    expect(FAULT_INPUTS['link-delay'].safeParse({ client: 1, node: 2, delayMs: 0.4, jitterMs: 0.4 }).success).toBe(true);
    expect(FAULT_INPUTS['link-delay'].safeParse({ client: 1, node: 2, delayMs: 0.45 }).success).toBe(false);
    expect(experimentInputSchema.safeParse({ seed: 3 }).success).toBe(true);
    expect(experimentInputSchema.safeParse({ days: 1000 }).success).toBe(false);
  });
});

describe('experiment state', () => {
  const row = { variant: 'no-lock', runId: 'r1' } as ExperimentRow;
  it('fills rows as progress comes, keeps them on a failure, and ignores progress after the answer', () => {
    let s = reduceExperimentRequested();
    expect(s.phase).toBe('running');
    s = reduceExperimentProgress(s, { playing: 'single-node', seed: 1, rows: [row], elapsedMs: 3000 });
    expect(s).toMatchObject({ playing: 'single-node', rows: [row] });
    expect(reduceExperimentFailed(s, 'gone')).toMatchObject({ phase: 'error', rows: [row], error: 'gone', playing: null });
    s = reduceExperimentResult(s, { rows: [row], cancelled: true, seconds: 4, seed: 1 });
    expect(s.phase).toBe('done');
    expect(reduceExperimentProgress(s, { playing: 'redlock', seed: 1, rows: [], elapsedMs: 1 })).toBe(s);
    expect(reduceExperimentProgress(emptyExperimentData(), { playing: 'redlock', seed: 1, rows: [row], elapsedMs: 1 }).rows).toEqual([]);
  });

  it('ends from the last progress when the answer was lost with a dropped connection', () => {
    let s = reduceExperimentAnswerLost(reduceExperimentRequested());
    expect(s.phase).toBe('running');
    expect(s.note).toContain('connection');
    const result = { rows: [row], cancelled: false, seconds: 12, seed: 4 };
    s = reduceExperimentProgress(s, { playing: null, seed: 4, rows: [row], elapsedMs: 12_000, result });
    expect(s).toMatchObject({ phase: 'done', result, rows: [row], note: null });
  });
});

describe('the lab store during the experiment', () => {
  it("names the experiment's program and the variant's scenario for each variant's run, not the tab's last own run", async () => {
    const { createLabStore } = await import('@/components/lab/lab-store');
    const store = createLabStore();
    const { actions } = store.getState();
    actions.runRequested({ code: 'my code', program: 'your code', scenario: null, checker: null });
    actions.experimentRequested();
    actions.experimentProgress({ playing: 'redlock', seed: 9, rows: [], elapsedMs: 0 });
    const { run } = store.getState();
    expect(run.program).toBe("the experiment's program");
    expect(run.scenario?.title).toBe('Experiment: Redlock, 5 nodes');
    expect(run.scenario?.seed).toBe(9);
    expect(run.code).toContain('"lock":"redlock"');
    expect(run.checker).toEqual({ expectedExecutions: 1 });
  });
});
