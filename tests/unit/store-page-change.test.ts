/**
 * A tab keeps one lab across pages, rebuilt clean for each page: the store
 * drops the previous page's run, verdict and time travel, and counts times
 * from when this page's view began, never from the lab's own start.
 */
import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import type { LabSnapshot } from '@/lib/cluster';
import type { RunEnded, RunInfo } from '@/lib/run';
import { viewOrigin } from '@/components/lab/lab-state';
import { createLabStore } from '@/components/lab/lab-store';
import { history } from './helpers/history-builder';

const snapshot = (patch: Partial<LabSnapshot> = {}): LabSnapshot => ({
  labId: 'lab-aaaaaaaa',
  topology: { kind: 'masters', nodes: 5, persistence: 'none' },
  clients: 2,
  nodes: [],
  links: [],
  replication: null,
  now: 167_000,
  ...patch,
});
const info: RunInfo = { runId: 'run-1', clients: 2, scenario: null, seed: 1, startedAt: 100_000 };
const ended: RunEnded = {
  runId: 'run-1',
  outcome: { runId: 'run-1', status: 'completed', clients: [], durationMs: 4_750 },
  verdict: check(history().at(0).enter(1).at(10).enter(2).at(20).exit(1).at(30).exit(2).build(), { final: true }),
};

describe('a page change in one tab', () => {
  it("drops the previous page's run, verdict and cursor when the lab is rebuilt for this page", () => {
    const store = createLabStore();
    const { actions } = store.getState();
    actions.receiveSnapshot(snapshot({ now: 90_000, historyFrom: 0 }), 0);
    actions.runEnded(ended, info);
    actions.setCursor(101_000);
    expect(store.getState().run.verdict?.valid).toBe('violated');

    // A snapshot pushed during the view (a run's fresh lab) carries no historyFrom: the run stays.
    actions.receiveSnapshot(snapshot({ now: 120_000 }), 0);
    expect(store.getState().run.phase).toBe('ended');

    // The same lab rebuilt for another page: its view starts later in the history.
    actions.receiveSnapshot(snapshot({ now: 167_000, historyFrom: 40 }), 0);
    const state = store.getState();
    expect(state.run).toMatchObject({ phase: 'idle', info: null, verdict: null, ended: null, started: 0 });
    expect(state.view.cursorT).toBeNull();
    expect(state.exercise.phase).toBe('idle');
    // Times count from when this page saw the lab (167 s on the lab clock), not from the lab's start.
    expect(viewOrigin(state)).toBe(167_000);
  });

  it('counts a reloaded view from its first event when it holds older ones', () => {
    const store = createLabStore();
    const { actions } = store.getState();
    actions.receiveSnapshot(snapshot({ now: 167_000, historyFrom: 3 }), 0);
    actions.receiveHistory({
      labId: 'lab-aaaaaaaa',
      from: 3,
      events: [{ seq: 3, t: 150_000, type: 'node', node: 2, state: 'down', role: 'master', persistence: 'none', reason: 'killed (SIGKILL)' }],
    });
    expect(viewOrigin(store.getState())).toBe(150_000);
  });
});
