/** The check's runs are the check's: after "Check my solution" the store shows the learner's own last run again. */
import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import type { GradeResult } from '@/lib/grading';
import type { RunEnded, RunInfo } from '@/lib/run';
import { createLabStore } from '@/components/lab/lab-store';
import { history } from './helpers/history-builder';

const held = check(history().at(0).enter(1).at(10).exit(1).at(20).enter(2).at(30).exit(2).build(), { final: true });
const broken = check(history().at(0).enter(1).at(10).enter(2).at(20).exit(1).at(30).exit(2).build(), { final: true });

const ownInfo: RunInfo = { runId: 'run-own', clients: 2, scenario: null, seed: 1, startedAt: 1_000 };
const checkInfo = (n: number, startedAt: number): RunInfo => ({
  runId: `run-check-${n}`,
  clients: 2,
  scenario: null,
  seed: n,
  startedAt,
  check: { n, total: 12, title: null, hidden: { n, total: 5 } },
});
const endOf = (runId: string, verdict = held): RunEnded => ({ runId, outcome: { runId, status: 'completed', clients: [], durationMs: 900 }, verdict });

const failedResult = (runId: string): GradeResult => ({
  slug: 'lesson-1',
  passed: false,
  total: 12,
  runs: [{ scenarioId: 'hidden', scenarioTitle: 'Hidden check 2 of 5', hidden: true, seed: 2, runId, passed: false, reason: 'two holders' }],
  failure: { runId, counterExample: null, message: 'two holders', hint: null },
});

function storeAfterOwnRun() {
  const store = createLabStore({ labId: 'lab-aaaaaaaa', clockOffsetMs: 0 });
  const a = store.getState().actions;
  a.runRequested({ code: 'mine', program: 'your code', scenario: null, checker: null });
  a.runStarted(ownInfo);
  a.runEnded(endOf('run-own', broken));
  return store;
}

describe('the check’s runs in the store', () => {
  it('shows a check’s run as the check’s while it plays, and the learner’s own run once it answers', () => {
    const store = storeAfterOwnRun();
    const a = store.getState().actions;
    a.exerciseRequested('lesson-1', 3_000);
    a.runStarted(checkInfo(1, 3_100));
    expect(store.getState().run.info?.check?.n).toBe(1);
    expect(store.getState().run.code).toBeNull(); // the check's program, not the learner's
    a.runEnded(endOf('run-check-1', held));
    a.runStarted(checkInfo(3, 4_100));
    a.runEnded(endOf('run-check-3', broken));
    a.exerciseResult(failedResult('run-check-3'));

    const run = store.getState().run;
    expect(run.info?.runId).toBe('run-own');
    expect(run.info?.check).toBeUndefined();
    expect(run.verdict?.valid).toBe(broken.valid);
    expect(run.code).toBe('mine');
    // Its events stop where the check began: none of the check's runs show under it.
    expect(run.shownUntilT).toBe(3_000);
  });

  it('shows the failing check run again on request, bounded by the next, and goes back to the learner’s', () => {
    const store = storeAfterOwnRun();
    const a = store.getState().actions;
    a.exerciseRequested('lesson-1', 3_000);
    a.runStarted(checkInfo(1, 3_100));
    a.runEnded(endOf('run-check-1', broken));
    a.runStarted(checkInfo(4, 4_100));
    a.runEnded(endOf('run-check-4', held));
    a.exerciseResult(failedResult('run-check-1'));

    a.showCheckRun('run-check-1');
    expect(store.getState().run.info?.check?.n).toBe(1);
    expect(store.getState().run.shownUntilT).toBe(4_100);
    a.showOwnRun();
    expect(store.getState().run.info?.runId).toBe('run-own');
  });

  it('with no run of their own before the check, shows none after it', () => {
    const store = createLabStore({ labId: 'lab-aaaaaaaa', clockOffsetMs: 0 });
    const a = store.getState().actions;
    a.exerciseRequested('lesson-1', 2_000);
    a.runStarted(checkInfo(1, 2_100));
    a.runEnded(endOf('run-check-1'));
    a.exerciseResult({ slug: 'lesson-1', passed: true, total: 12, runs: [], failure: null });
    const run = store.getState().run;
    expect(run.info).toBeNull();
    expect(run.verdict).toBeNull();
    expect(run.phase).toBe('idle');
    expect(run.shownUntilT).toBe(2_000);
  });

  it('leaves a run the learner started during the check alone', () => {
    const store = storeAfterOwnRun();
    const a = store.getState().actions;
    a.exerciseRequested('lesson-1', 3_000);
    a.runStarted(checkInfo(1, 3_100));
    a.runRequested({ code: 'again', program: 'your code', scenario: null, checker: null });
    a.runStarted({ ...ownInfo, runId: 'run-own-2', startedAt: 3_500 });
    a.exerciseFailed('stopped by your run');
    expect(store.getState().run.info?.runId).toBe('run-own-2');
  });
});
