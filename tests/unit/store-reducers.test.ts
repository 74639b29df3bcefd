import { describe, expect, it } from 'vitest';
import type { LabSnapshot, LockKeyView, NodeView } from '@/lib/cluster';
import type { HistoryEvent } from '@/lib/history';
import {
  emptyLabData,
  labNow,
  reduceHistory,
  reduceLinksDiff,
  reduceNodesDiff,
  reduceSnapshot,
  remainingTtl,
  type LabData,
} from '@/components/lab/lab-state';
import { createLabStore } from '@/components/lab/lab-store';

const node = (id: number, patch: Partial<NodeView> = {}): NodeView => ({
  id,
  label: `Node ${id}`,
  port: 40_000 + id,
  state: 'up',
  role: 'master',
  replicaOf: null,
  persistence: 'none',
  restartDueAt: null,
  keys: [],
  keysTruncated: false,
  clockJumpMs: 0,
  intervention: null,
  ...patch,
});

const lock = (key: string, value: string, pttl: number, sampledAt: number): LockKeyView => ({
  key,
  value,
  pttl,
  sampledAt,
});

const snapshot = (patch: Partial<LabSnapshot> = {}): LabSnapshot => ({
  labId: 'lab-aaaaaaaa',
  topology: { kind: 'masters', nodes: 3, persistence: 'none' },
  clients: 2,
  // Deliberately out of order: the view must sort by id.
  nodes: [node(3), node(1), node(2)],
  links: [],
  replication: null,
  now: 1_000,
  ...patch,
});

const nodeEvent = (seq: number, n: number, state: 'up' | 'down' | 'paused'): HistoryEvent => ({
  seq,
  t: 1_000 + seq,
  type: 'node',
  node: n,
  state,
  role: 'master',
  persistence: 'none',
  reason: state === 'down' ? 'killed (SIGKILL)' : 'restarted',
});

const joined = (localNow = 5_000): LabData => reduceSnapshot(emptyLabData(), snapshot(), localNow);

describe('reduceSnapshot', () => {
  it('takes the lab, sorts nodes by id and estimates the clock offset', () => {
    const data = joined(5_000);
    expect(data.labId).toBe('lab-aaaaaaaa');
    expect(data.nodeIds).toEqual([1, 2, 3]);
    expect(data.nodes[2]?.label).toBe('Node 2');
    expect(data.clockOffsetMs).toBe(4_000);
    expect(labNow(data, 5_250)).toBe(1_250);
  });

  it('keeps history on a re-join of the same lab and drops it for another lab', () => {
    const withHistory = reduceHistory(joined(), { labId: 'lab-aaaaaaaa', from: 0, events: [nodeEvent(0, 1, 'down')] });
    const rejoined = reduceSnapshot(withHistory, snapshot(), 9_000);
    expect(rejoined.history).toHaveLength(1);
    expect(rejoined.nextSeq).toBe(1);

    const other = reduceSnapshot(withHistory, snapshot({ labId: 'lab-bbbbbbbb' }), 9_000);
    expect(other.history).toEqual([]);
    expect(other.nextSeq).toBe(0);
  });

  it('resets the clock offset for a different lab but only lowers it for the same lab', () => {
    const first = joined(5_000); // offset 4000
    const lateRejoin = reduceSnapshot(first, snapshot({ now: 2_000 }), 6_300); // offset 4300: a late message
    expect(lateRejoin.clockOffsetMs).toBe(4_000);
    const otherLab = reduceSnapshot(first, snapshot({ labId: 'lab-bbbbbbbb', now: 10 }), 7_000);
    expect(otherLab.clockOffsetMs).toBe(6_990);
  });
});

describe('reduceNodesDiff', () => {
  it('replaces only the nodes in the diff and keeps the others identical', () => {
    const before = joined();
    const after = reduceNodesDiff(before, { labId: 'lab-aaaaaaaa', nodes: [node(2, { state: 'down' })], now: 1_100 }, 5_100);
    expect(after.nodes[2]?.state).toBe('down');
    expect(after.nodes[1]).toBe(before.nodes[1]);
    expect(after.nodeIds).toBe(before.nodeIds);
  });

  it('ignores a diff for another lab', () => {
    const before = joined();
    const after = reduceNodesDiff(before, { labId: 'lab-other000', nodes: [node(2, { state: 'down' })], now: 1_100 }, 5_100);
    expect(after).toBe(before);
  });

  it('adds a node it did not know, in id order', () => {
    const after = reduceNodesDiff(joined(), { labId: 'lab-aaaaaaaa', nodes: [node(5)], now: 1_100 }, 5_100);
    expect(after.nodeIds).toEqual([1, 2, 3, 5]);
  });

  it('lowers the clock offset when a diff arrives sooner than expected', () => {
    const after = reduceNodesDiff(joined(5_000), { labId: 'lab-aaaaaaaa', nodes: [], now: 1_200 }, 5_150);
    expect(after.clockOffsetMs).toBe(3_950);
    const later = reduceNodesDiff(after, { labId: 'lab-aaaaaaaa', nodes: [], now: 1_300 }, 5_400);
    expect(later.clockOffsetMs).toBe(3_950);
  });

  it('keeps a TTL peak per holder: it grows with extensions and resets for a new holder', () => {
    const diff = (value: string, pttl: number) => ({
      labId: 'lab-aaaaaaaa',
      nodes: [node(1, { keys: [lock('lock:invoice:42', value, pttl, 1_100)] })],
      now: 1_100,
    });
    let data = reduceNodesDiff(joined(), diff('token-a', 8_000), 5_100);
    expect(data.ttlPeaks[1]?.['lock:invoice:42']).toEqual({ value: 'token-a', peakMs: 8_000 });
    data = reduceNodesDiff(data, diff('token-a', 6_000), 5_100);
    expect(data.ttlPeaks[1]?.['lock:invoice:42']?.peakMs).toBe(8_000);
    data = reduceNodesDiff(data, diff('token-a', 10_000), 5_100);
    expect(data.ttlPeaks[1]?.['lock:invoice:42']?.peakMs).toBe(10_000);
    data = reduceNodesDiff(data, diff('token-b', 3_000), 5_100);
    expect(data.ttlPeaks[1]?.['lock:invoice:42']).toEqual({ value: 'token-b', peakMs: 3_000 });
    data = reduceNodesDiff(data, { labId: 'lab-aaaaaaaa', nodes: [node(1)], now: 1_100 }, 5_100);
    expect(data.ttlPeaks[1]).toEqual({});
  });
});

describe('reduceLinksDiff', () => {
  it('merges links by client and node and takes the replication view', () => {
    const base = reduceLinksDiff(joined(), {
      labId: 'lab-aaaaaaaa',
      links: [
        { client: 1, node: 1, cut: null, delayMs: 0, jitterMs: 0 },
        { client: 1, node: 2, cut: null, delayMs: 0, jitterMs: 0 },
      ],
      replication: null,
    });
    const after = reduceLinksDiff(base, {
      labId: 'lab-aaaaaaaa',
      links: [{ client: 1, node: 2, cut: 'refuse', delayMs: 0, jitterMs: 0 }],
      replication: { master: 1, replica: 2, held: true, delayMs: 0 },
    });
    expect(after.links).toHaveLength(2);
    expect(after.links.find((l) => l.node === 2)?.cut).toBe('refuse');
    expect(after.links.find((l) => l.node === 1)?.cut).toBeNull();
    expect(after.replication?.held).toBe(true);
  });
});

describe('reduceHistory', () => {
  it('appends in order and skips events it already holds', () => {
    let data = reduceHistory(joined(), { labId: 'lab-aaaaaaaa', from: 0, events: [nodeEvent(0, 1, 'down'), nodeEvent(1, 1, 'up')] });
    data = reduceHistory(data, { labId: 'lab-aaaaaaaa', from: 1, events: [nodeEvent(1, 1, 'up'), nodeEvent(2, 2, 'down')] });
    expect(data.history.map((e) => e.seq)).toEqual([0, 1, 2]);
    expect(data.nextSeq).toBe(3);
    expect(data.historyGap).toBe(false);
  });

  it('remembers a gap when a batch starts past the next expected seq', () => {
    const data = reduceHistory(joined(), { labId: 'lab-aaaaaaaa', from: 5, events: [nodeEvent(5, 1, 'down')] });
    expect(data.history).toHaveLength(1);
    expect(data.nextSeq).toBe(6);
    expect(data.historyGap).toBe(true);
  });

  it('returns the same object for a batch that adds nothing, and ignores other labs', () => {
    const data = reduceHistory(joined(), { labId: 'lab-aaaaaaaa', from: 0, events: [nodeEvent(0, 1, 'down')] });
    expect(reduceHistory(data, { labId: 'lab-aaaaaaaa', from: 0, events: [nodeEvent(0, 1, 'down')] })).toBe(data);
    expect(reduceHistory(data, { labId: 'lab-zzzzzzzz', from: 1, events: [nodeEvent(1, 1, 'up')] })).toBe(data);
  });

  it('drops the oldest events beyond the cap', () => {
    const events = Array.from({ length: 10 }, (_, i) => nodeEvent(i, 1, i % 2 ? 'up' : 'down'));
    const data = reduceHistory(joined(), { labId: 'lab-aaaaaaaa', from: 0, events }, 4);
    expect(data.history.map((e) => e.seq)).toEqual([6, 7, 8, 9]);
    expect(data.nextSeq).toBe(10);
  });
});

describe('remainingTtl', () => {
  it('counts down from the sample and stops at zero', () => {
    const key = lock('k', 'v', 3_000, 1_000);
    expect(remainingTtl(key, 1_000)).toBe(3_000);
    expect(remainingTtl(key, 2_500)).toBe(1_500);
    expect(remainingTtl(key, 9_000)).toBe(0);
  });

  it('keeps -1 (no expiry) and does not count up for a clock behind the sample', () => {
    expect(remainingTtl(lock('k', 'v', -1, 1_000), 5_000)).toBe(-1);
    expect(remainingTtl(lock('k', 'v', 3_000, 1_000), 900)).toBe(3_000);
    expect(remainingTtl(lock('k', 'v', 3_000, 1_000), null)).toBe(3_000);
  });
});

describe('createLabStore', () => {
  it('gives each call its own store', () => {
    const a = createLabStore();
    const b = createLabStore();
    a.getState().actions.receiveSnapshot(snapshot(), 5_000);
    expect(a.getState().labId).toBe('lab-aaaaaaaa');
    expect(b.getState().labId).toBeNull();
  });

  it('folds pushes through its actions and notifies only on change', () => {
    const store = createLabStore();
    const { actions } = store.getState();
    actions.receiveSnapshot(snapshot(), 5_000);
    let notified = 0;
    const unsubscribe = store.subscribe(() => notified++);
    actions.receiveNodes({ labId: 'lab-other000', nodes: [node(1, { state: 'down' })], now: 1_100 }, 5_100);
    expect(notified).toBe(0);
    actions.receiveNodes({ labId: 'lab-aaaaaaaa', nodes: [node(1, { state: 'down' })], now: 1_100 }, 5_100);
    expect(notified).toBe(1);
    expect(store.getState().nodes[1]?.state).toBe('down');
    unsubscribe();
  });

  it('keeps the last three errors and dismisses by id', () => {
    const store = createLabStore();
    const { actions } = store.getState();
    for (const n of [1, 2, 3, 4]) actions.reportError({ command: `Kill Node ${n}`, code: 'conflict', message: 'already down' });
    const errors = store.getState().errors;
    expect(errors.map((e) => e.command)).toEqual(['Kill Node 2', 'Kill Node 3', 'Kill Node 4']);
    actions.dismissError(errors[0]!.id);
    expect(store.getState().errors.map((e) => e.command)).toEqual(['Kill Node 3', 'Kill Node 4']);
  });

  it('tracks pending commands by name', () => {
    const store = createLabStore();
    const { actions } = store.getState();
    actions.setPending('Kill Node 2', true);
    expect(store.getState().pending).toEqual({ 'Kill Node 2': true });
    actions.setPending('Kill Node 2', false);
    expect(store.getState().pending).toEqual({});
  });
});

describe('a view that starts later in the history (historyFrom)', () => {
  it('keeps nothing before it, neither what came with the snapshot nor a stale batch after it', () => {
    const moved = reduceSnapshot(emptyLabData(), snapshot({ historyFrom: 40 }), 5_000);
    expect(moved.nextSeq).toBe(40);
    const stale = reduceHistory(moved, { labId: 'lab-aaaaaaaa', from: 38, events: [nodeEvent(38, 1, 'up'), nodeEvent(39, 2, 'up'), nodeEvent(40, 1, 'down')] });
    expect(stale.history.map((e) => e.seq)).toEqual([40]);
    expect(stale.historyGap).toBe(false);
    // The same lab rebuilt under a tab that watches it: what came before the rebuild goes.
    const rebuilt = reduceSnapshot(stale, snapshot({ historyFrom: 41 }), 6_000);
    expect(rebuilt.history).toEqual([]);
    expect(rebuilt.nextSeq).toBe(41);
  });
});
