/**
 * An exported run carries everything the Measurements view needs: measured from the file's history, its start and
 * its checker settings, a run opened again gives the same figures, histogram, series, holds, jobs and fault bands as
 * it did live (where the view measures the lab's history from the run's start).
 */
import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '@/lib/history';
import { measureRun } from '@/lib/measurements';
import { emptyRunData, lowerBoundT, reduceRunRequested, reduceRunStarted } from '@/components/lab/run-state';
import { parseRunFile, recordRun, runOrigin } from '@/components/workspace/run-file';
import { history } from './helpers/history-builder';

describe('an exported run, measured again', () => {
  it('measures the same as the live run it was exported from', () => {
    const b = history().at(200).log(1, 'before the run'); // lab events before the run are not the run's
    for (let i = 0; i < 40; i++) {
      const t = 1_000 + i * 50;
      b.at(t).attempt(1 + (i % 3)).at(t + 1 + (i % 7) * 0.37).acquired(1 + (i % 3), 'lock', { validityMs: 900 });
      b.at(t + 10).enter(1 + (i % 3), 'report').at(t + 30).exit(1 + (i % 3), 'report').at(t + 31).released(1 + (i % 3));
      b.at(t + 35).attempt(2).at(t + 38).failed(2);
    }
    const events: HistoryEvent[] = b.build();
    events.push({ type: 'nemesis', seq: events.length, t: 1_600, op: 'node-kill', phase: 'ok', target: 'Node 3', node: 3, args: {}, detail: 'Node 3 killed (SIGKILL)' });
    const checker = { expectedExecutions: { report: 1 } };
    const run = reduceRunStarted(reduceRunRequested(emptyRunData(), { code: 'x', scenario: null, checker }), { runId: 'run-3', clients: 3, scenario: null, seed: 3, startedAt: 1_000 });

    // As the view measures the live run: the lab's history from the run's start, its checker settings.
    const live = measureRun(events.slice(lowerBoundT(events, 1_000)), { origin: 1_000, expectedExecutions: checker.expectedExecutions });
    const parsed = parseRunFile(JSON.stringify(recordRun({ lesson: 'playground', run, history: events })));
    if (!parsed.ok) throw new Error(parsed.message);
    const opened = measureRun(parsed.run.history, { origin: runOrigin(parsed.run), ...(parsed.run.checker?.expectedExecutions !== undefined ? { expectedExecutions: parsed.run.checker.expectedExecutions } : {}) });

    expect(opened).toEqual(live);
    expect(live.latency.count).toBe(80);
    expect(live.duplicates).toBe(39);
    expect(live.faults).toHaveLength(1);
  });
});
