import { describe, expect, it } from 'vitest';
import type { HistoryEvent, HistoryInput } from '@/lib/history';
import { eventBytes } from '@/lib/history-size';
import { HistoryLog } from '@/server/lab/history-log';

const consoleLine = (runId: string | undefined, text = 'x'): HistoryInput =>
  runId === undefined ? { type: 'console', client: 1, level: 'log', text } : { type: 'console', client: 1, level: 'log', text, runId };
const nodeEvent = (node: number, state: 'up' | 'down'): HistoryInput => ({ type: 'node', node, state, role: 'master', persistence: 'none', reason: state });

const seqs = (events: readonly HistoryEvent[]) => events.map((e) => e.seq);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

function log(budget: ConstructorParameters<typeof HistoryLog>[1]) {
  let t = 0;
  return new HistoryLog(() => t++, budget);
}

describe('HistoryLog budget', () => {
  it('keeps every event under its budget, with gap-free seqs from 0', () => {
    const h = log({ maxEvents: 100 });
    for (let i = 0; i < 50; i++) h.append(consoleLine('run-1'));
    expect(h.length).toBe(50);
    expect(h.firstSeq).toBe(0);
    expect(seqs(h.since(0))).toEqual(range(0, 50));
  });

  it('drops the oldest events past the event cap: older runs first, seqs stay global and contiguous', () => {
    const h = log({ maxEvents: 10, runEvents: 10 });
    for (let i = 0; i < 6; i++) h.append(consoleLine('run-1'));
    for (let i = 0; i < 8; i++) h.append(consoleLine('run-2'));
    expect(h.length).toBe(10);
    expect(h.firstSeq).toBe(4);
    const kept = h.since(0);
    expect(seqs(kept)).toEqual(range(4, 14));
    expect(kept.filter((e) => e.runId === 'run-1')).toHaveLength(2);
    expect(kept.filter((e) => e.runId === 'run-2')).toHaveLength(8);
    // The next event keeps counting from where the log was, not from what is kept.
    expect(h.append(consoleLine('run-2')).seq).toBe(14);
  });

  it('since(from) after eviction: the offset is the first kept seq', () => {
    const h = log({ maxEvents: 5 });
    for (let i = 0; i < 12; i++) h.append(consoleLine('run-1'));
    expect(h.firstSeq).toBe(7);
    expect(seqs(h.since(0))).toEqual(range(7, 12)); // asked for evicted seqs: what is kept
    expect(seqs(h.since(7))).toEqual(range(7, 12));
    expect(seqs(h.since(10))).toEqual([10, 11]);
    expect(seqs(h.since(12))).toEqual([]);
    expect(seqs(h.since(99))).toEqual([]);
  });

  it('keeps working across the internal compaction of the evicted prefix', () => {
    const h = log({ maxEvents: 100 });
    for (let i = 0; i < 3_000; i++) h.append(consoleLine(`run-${Math.floor(i / 700)}`));
    expect(h.length).toBe(100);
    expect(seqs(h.since(0))).toEqual(range(2_900, 3_000));
    expect(seqs(h.since(2_950))).toEqual(range(2_950, 3_000));
  });

  it('counts bytes as the events kept hold them, and drops the oldest past the byte cap', () => {
    const big = 'y'.repeat(1_000);
    const one = eventBytes({ ...consoleLine('run-1', big), seq: 0, t: 0 });
    const h = log({ maxBytes: one * 3 + 10, runBytes: one * 3 });
    h.append(consoleLine('run-1', big));
    expect(h.bytes).toBe(one);
    h.append(consoleLine('run-1', big));
    h.append(consoleLine('run-2', big));
    expect(h.length).toBe(3);
    h.append(consoleLine('run-2', big));
    expect(h.length).toBe(3);
    expect(h.firstSeq).toBe(1);
    expect(h.bytes).toBeLessThanOrEqual(one * 3 + 10);
    // The sum over what is kept, recomputed, equals the running count.
    expect(h.bytes).toBe(h.since(0).reduce((n, e) => n + eventBytes(e), 0));
  });

  it("counts a run's usage including its evicted events, and forgets a run once none of its events is kept", () => {
    const h = log({ maxEvents: 4 });
    for (let i = 0; i < 3; i++) h.append(consoleLine('run-1'));
    expect(h.runUsage('run-1').events).toBe(3);
    h.append(consoleLine('run-2'));
    h.append(consoleLine('run-2'));
    expect(h.runUsage('run-1').events).toBe(3); // one evicted, still counted
    for (let i = 0; i < 3; i++) h.append(consoleLine('run-2'));
    expect(h.since(0).some((e) => e.runId === 'run-1')).toBe(false);
    expect(h.runUsage('run-1')).toEqual({ events: 0, bytes: 0 });
    expect(h.runUsage('run-2').events).toBe(5);
    expect(h.runUsage('run-2').bytes).toBeGreaterThan(0);
  });

  it("keeps each node's latest state aside, even once evicted (the next run's checker starts from it)", () => {
    const h = log({ maxEvents: 3 });
    h.append(nodeEvent(1, 'down'));
    h.append(nodeEvent(2, 'down'));
    h.append(nodeEvent(1, 'up'));
    for (let i = 0; i < 10; i++) h.append(consoleLine('run-1'));
    expect(h.since(0).some((e) => e.type === 'node')).toBe(false);
    const latest = h.latestNodeStates();
    expect(latest.map((e) => [e.node, e.state, e.seq])).toEqual([
      [2, 'down', 1],
      [1, 'up', 2],
    ]);
  });

  it('tells listeners every event once, evicted or not', () => {
    const h = log({ maxEvents: 2 });
    const seen: number[] = [];
    h.subscribe((e) => seen.push(e.seq));
    for (let i = 0; i < 6; i++) h.append(consoleLine(undefined));
    expect(seen).toEqual(range(0, 6));
  });
});
