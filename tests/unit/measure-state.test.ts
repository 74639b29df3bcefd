/** A pinned run stays in the lab store while the learner runs others, and goes only when unpinned. */
import { describe, expect, it } from 'vitest';
import { measureRun } from '@/lib/measurements';
import { createLabStore } from '@/components/lab/lab-store';
import { history } from './helpers/history-builder';

describe('pinning a run', () => {
  it('keeps the pinned run across the next run, and forgets it on Unpin', () => {
    const store = createLabStore();
    const { actions } = store.getState();
    const measurements = measureRun(history().at(0).attempt(1).at(3).acquired(1).build());
    actions.pinRun({ label: 'Run 1: your code, no scenario', runId: 'run-1', measurements });
    actions.runRequested({ code: 'x', scenario: null, checker: null });
    actions.runStarted({ runId: 'run-2', clients: 3, scenario: null, seed: 1, startedAt: 10 });
    expect(store.getState().measure.pinned).toMatchObject({ runId: 'run-1', label: 'Run 1: your code, no scenario' });
    expect(store.getState().measure.pinned?.measurements.latency.p50).toBeCloseTo(3, 2);
    actions.pinRun(null);
    expect(store.getState().measure.pinned).toBeNull();
  });
});
