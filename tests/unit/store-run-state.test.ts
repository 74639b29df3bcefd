/** The run's reducers and the view's time-travel state, on hand-written messages. */
import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import type { RunEnded, RunInfo } from '@/lib/run';
import {
  emptyRunData,
  emptyViewData,
  reduceCursor,
  reduceFocus,
  reduceReplay,
  reduceRunDiagnostic,
  reduceRunEnded,
  reduceRunFailed,
  reduceRunRequested,
  reduceRunStarted,
  reduceRunVerdict,
  runBusy,
  visibleHistory,
  type RecordedRun,
} from '@/components/lab/run-state';
import { createLabStore } from '@/components/lab/lab-store';
import { history } from './helpers/history-builder';

const info = (runId = 'run-1'): RunInfo => ({ runId, clients: 3, scenario: null, seed: 1, startedAt: 1_000 });
const verdictOf = (final: boolean) => check(history().at(0).enter(1).at(10).enter(2).at(20).exit(1).at(30).exit(2).build(), { final });
const ended = (runId = 'run-1'): RunEnded => ({
  runId,
  outcome: { runId, status: 'completed', clients: [], durationMs: 1_200 },
  verdict: verdictOf(true),
});

describe('run reducers', () => {
  it('a request forgets the last run and counts the start', () => {
    let run = reduceRunEnded(reduceRunStarted(reduceRunRequested(emptyRunData(), { code: 'a', scenario: null, checker: null }), info()), ended());
    run = reduceRunRequested(run, { code: 'b', scenario: null, checker: null });
    expect(run).toMatchObject({ phase: 'starting', code: 'b', info: null, verdict: null, ended: null, started: 2 });
    expect(runBusy(run)).toBe(true);
  });

  it('takes the ack or the push, whichever comes first, once', () => {
    const requested = reduceRunRequested(emptyRunData(), { code: 'a', scenario: null, checker: null });
    const started = reduceRunStarted(requested, info());
    expect(started.phase).toBe('running');
    expect(reduceRunStarted(started, info())).toBe(started);
  });

  it('keeps an end that arrived before the acknowledgement', () => {
    const requested = reduceRunRequested(emptyRunData(), { code: 'a', scenario: null, checker: null });
    const endedFirst = reduceRunEnded(requested, ended());
    expect(reduceRunStarted(endedFirst, info()).phase).toBe('ended');
  });

  it('ignores verdicts of another run and live verdicts after the final one', () => {
    const running = reduceRunStarted(reduceRunRequested(emptyRunData(), { code: 'a', scenario: null, checker: null }), info());
    expect(reduceRunVerdict(running, { runId: 'run-0', verdict: verdictOf(false) })).toBe(running);
    const live = reduceRunVerdict(running, { runId: 'run-1', verdict: verdictOf(false) });
    expect(live.verdict?.final).toBe(false);
    const done = reduceRunEnded(live, ended());
    expect(done.verdict?.final).toBe(true);
    expect(reduceRunVerdict(done, { runId: 'run-1', verdict: verdictOf(false) })).toBe(done);
  });

  it('keeps one diagnostic per place and message (every client reports the same syntax error)', () => {
    const running = reduceRunStarted(reduceRunRequested(emptyRunData(), { code: 'a', scenario: null, checker: null }), info());
    const d = { runId: 'run-1', severity: 'error' as const, kind: 'syntax' as const, message: 'Unexpected token', line: 3, column: 16 };
    const once = reduceRunDiagnostic(running, { ...d, client: 1 });
    const twice = reduceRunDiagnostic(once, { ...d, client: 2 });
    expect(twice.diagnostics).toHaveLength(1);
    expect(twice.diagnostics[0]).toMatchObject({ line: 3, column: 16, client: 1 });
    expect(reduceRunDiagnostic(twice, { ...d, runId: 'run-0', line: 9 })).toBe(twice);
  });

  it('records a refused start in words', () => {
    const failed = reduceRunFailed(reduceRunRequested(emptyRunData(), { code: '', scenario: null, checker: null }), 'the program is empty');
    expect(failed).toMatchObject({ phase: 'ended', startError: 'the program is empty' });
    expect(runBusy(failed)).toBe(false);
  });
});

describe('view reducers', () => {
  it('a cursor cuts the history at its time; null shows everything', () => {
    const events = history().at(0).start(1).at(10).enter(1).at(20).exit(1).at(30).start(2).build();
    expect(visibleHistory(events, null, 15).map((e) => e.t)).toEqual([0, 10]);
    expect(visibleHistory(events, 10, null).map((e) => e.t)).toEqual([10, 20, 30]);
    expect(visibleHistory(events, null, null)).toBe(events);
    expect(reduceCursor({ ...emptyViewData(), playing: true }, null).playing).toBe(false);
  });

  it('each "Show on timeline" is a new focus request, even for the same window', () => {
    const first = reduceFocus(emptyViewData(), { from: 1, to: 2 });
    const second = reduceFocus(first, { from: 1, to: 2 });
    expect(second.focus?.nonce).toBe((first.focus?.nonce ?? 0) + 1);
  });

  it('opening a saved run resets the cursor and keeps the speed', () => {
    const replay = { history: [] } as unknown as RecordedRun;
    const view = reduceReplay({ ...emptyViewData(), speed: 4, cursorT: 12 }, replay, null);
    expect(view).toMatchObject({ replay, cursorT: null, speed: 4 });
  });
});

describe('lab store run actions', () => {
  it('folds the run into the store beside the lab data, and a new run clears the cursor', () => {
    const store = createLabStore();
    const { actions } = store.getState();
    actions.setCursor(500);
    actions.runRequested({ code: 'x', scenario: null, checker: null });
    expect(store.getState().view.cursorT).toBeNull();
    actions.runStarted(info());
    actions.runEnded(ended());
    expect(store.getState().run).toMatchObject({ phase: 'ended', code: 'x' });
    expect(store.getState().run.verdict?.valid).toBe('violated');
  });
});
