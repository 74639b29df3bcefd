/**
 * lib/measurements on hand-written histories: what counts as an acquire (redlock attempts, raw SET NX), latencies,
 * holds and the held share, acquires over time, fault bands, and duplicate executions counted as the checker counts them.
 */
import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import type { HistoryEvent } from '@/lib/history';
import { binSize, latencyBins, measureRun } from '@/lib/measurements';
import { readAcquires } from '@/lib/measurements/acquires';
import { faultBands } from '@/lib/measurements/faults';
import { jobExecutions } from '@/lib/measurements/jobs';
import { compareWords, formatMs, latencyWords } from '@/lib/measurements/words';
import { history } from './helpers/history-builder';

const nemesis = (seq: number, t: number, op: Extract<HistoryEvent, { type: 'nemesis' }>['op'], target: string, detail?: string): HistoryEvent => ({
  type: 'nemesis',
  seq,
  t,
  op,
  phase: 'ok',
  target,
  args: {},
  ...(detail ? { detail } : {}),
});

describe('readAcquires', () => {
  it('counts each redlock attempt as one acquire, from attempt to its answer; a retry is another', () => {
    const h = history()
      .at(100).attempt(1).at(103).failed(1)
      .at(300).attempt(1).at(304.5).acquired(1, 'lock', { validityMs: 1000 })
      .at(800).released(1)
      .build();
    const { acquires, holds } = readAcquires(h);
    expect(acquires.map((a) => [a.outcome, a.latencyMs])).toEqual([['failed', 3], ['granted', 4.5]]);
    expect(holds).toEqual([{ client: 1, from: 304.5, to: 800 }]);
  });

  it('calls a failed attempt whose votes timed out a timeout', () => {
    const h = history().at(0).attempt(2).build();
    h.push({ type: 'lock', seq: 1, t: 500, client: 2, event: 'failed', resources: ['lock'], token: 'token-2', votes: [{ node: 1, ok: false, error: 'Command timed out' }] });
    expect(readAcquires(h).acquires[0]).toMatchObject({ outcome: 'timeout', latencyMs: 500 });
  });

  it('ends a hold at its validity when the holder never releases, and at its client’s crash', () => {
    const h = history()
      .at(0).attempt(1).at(2).acquired(1, 'lock', { validityMs: 100 })
      .at(10).attempt(2).at(12).acquired(2, 'lock', { validityMs: 10_000 })
      .at(50).crash(2)
      .at(1000).log(3)
      .build();
    expect(readAcquires(h).holds).toEqual([{ client: 1, from: 2, to: 102 }, { client: 2, from: 12, to: 50 }]);
  });

  it('moves a hold’s end with an extension', () => {
    const h = history().at(0).attempt(1).at(1).acquired(1, 'lock', { validityMs: 100 }).at(90).extended(1, 'lock', { validityMs: 100 }).at(500).log(1).build();
    expect(readAcquires(h).holds[0]).toMatchObject({ from: 1, to: 190 });
  });

  it('leaves an attempt without an answer unanswered, with no latency', () => {
    const h = history().at(0).attempt(1).at(5).crash(1).at(9).attempt(2).build();
    expect(readAcquires(h).acquires.map((a) => [a.outcome, a.to, a.latencyMs])).toEqual([['unanswered', 5, null], ['unanswered', null, null]]);
  });

  it('counts raw SET NX: OK granted, nil refused, unknown outcome timed out; DEL releases', () => {
    const h = history()
      .at(0).redis(1, 1, 'set', ['lock', 'a', 'NX', 'PX', '5000'], 'OK', { tookMs: 2 })
      .at(3).redis(2, 1, 'SET', ['lock', 'b', 'nx'], null, { tookMs: 1 })
      .at(5).redis(3, 1, 'set', ['lock', 'c', 'NX'], null, { phase: 'info', tookMs: 40 })
      .at(50).redis(1, 1, 'del', ['lock'], 1, { tookMs: 1 })
      .at(60).redis(1, 1, 'set', ['other', 'x'], 'OK')
      .build();
    const { acquires, holds } = readAcquires(h);
    expect(acquires.map((a) => [a.client, a.source, a.outcome, a.latencyMs])).toEqual([
      [1, 'set-nx', 'granted', 2],
      [2, 'set-nx', 'failed', 1],
      [3, 'set-nx', 'timeout', 40],
    ]);
    expect(holds).toEqual([{ client: 1, from: 2, to: 51 }]);
  });

  it('leaves SET NX on a key the redlock module names to the lock events', () => {
    const h = history().at(0).attempt(1).at(1).acquired(1).at(2).redis(2, 1, 'set', ['lock', 'x', 'NX'], null).build();
    expect(readAcquires(h).acquires.map((a) => a.source)).toEqual(['lock-event']);
  });
});

describe('faultBands', () => {
  it('runs a lasting fault to its recovery on the same target, an instant one nowhere, an unhealed one to the end', () => {
    const h: HistoryEvent[] = [
      nemesis(0, 100, 'node-kill', 'Node 3', 'Node 3 killed (SIGKILL)'),
      nemesis(1, 200, 'link-cut', 'Client 1 → Node 2'),
      nemesis(2, 300, 'node-restart', 'Node 3'),
      nemesis(3, 400, 'node-clock-jump', 'Node 1'),
      { type: 'console', seq: 4, t: 900, client: 1, level: 'log', text: 'x' },
    ];
    expect(faultBands(h).map((b) => [b.target, b.from, b.to, b.instant, b.open])).toEqual([
      ['Node 3', 100, 300, false, false],
      ['Client 1 → Node 2', 200, 900, false, true],
      ['Node 1', 400, 400, true, false],
    ]);
    expect(faultBands(h)[0]?.label).toBe('Node 3 killed (SIGKILL)');
  });

  it('ends a timed client pause at the client’s resume', () => {
    const h: HistoryEvent[] = [nemesis(0, 10, 'client-pause', 'Client 2'), { type: 'client', seq: 1, t: 70, client: 2, event: 'resume' }];
    expect(faultBands(h)[0]).toMatchObject({ from: 10, to: 70, open: false });
  });
});

describe('jobExecutions', () => {
  it('counts completed, cut and open executions and duplicates past the expected count, as the checker does', () => {
    const b = history()
      .at(0).enter(1, 'report').at(10).exit(1, 'report')
      .at(20).enter(2, 'report').at(30).exit(2, 'report')
      .at(40).enter(3, 'report').at(45).crash(3)
      .at(50).enter(1, 'backup')
      .at(60).enter(2, 'report').at(70).exit(2, 'report');
    const h = b.build();
    const jobs = jobExecutions(h, { report: 1 });
    expect(jobs).toEqual([
      { job: 'backup', completed: 0, cut: 0, open: 1, expected: null, duplicates: null },
      { job: 'report', completed: 3, cut: 1, open: 0, expected: 1, duplicates: 2 },
    ]);
    const stats = check(h, { expectedExecutions: { report: 1 }, final: true }).stats.jobs;
    for (const job of jobs) {
      const theirs = stats.find((s) => s.job === job.job);
      expect(theirs).toMatchObject({ completed: job.completed, incomplete: job.cut, open: job.open, expected: job.expected });
    }
  });
});

describe('measureRun', () => {
  it('measures from the run’s start: latencies, totals, held share, rates, faults and duplicates', () => {
    const b = history()
      .at(1000).start(1)
      .at(1100).attempt(1).at(1102).acquired(1, 'lock', { validityMs: 5000 })
      .at(1110).enter(1).at(1590).exit(1)
      .at(1600).released(1)
      .at(1700).attempt(2).at(1706).failed(2);
    const h = b.build();
    h.push(nemesis(h.length, 1800, 'node-kill', 'Node 1'));
    h.push({ type: 'console', seq: h.length, t: 3000, client: 1, level: 'log', text: 'end' });
    const m = measureRun(h, { origin: 1000, expectedExecutions: 1 });
    expect(m.durationMs).toBe(2000);
    expect(m.counted).toEqual({ lockEvents: 2, setNx: 0 });
    expect(m.totals).toEqual({ granted: 1, failed: 1, timeout: 0, unanswered: 0 });
    expect(m.latency.count).toBe(2);
    expect(m.latency.max).toBe(6);
    expect(m.heldMs).toBe(498);
    expect(m.heldShare).toBeCloseTo(0.249, 6);
    expect(m.acquiresPerSecond).toBe(0.5);
    expect(m.duplicates).toBe(0);
    expect(m.faults).toEqual([expect.objectContaining({ target: 'Node 1', from: 800, to: 2000, open: true })]);
    expect(m.binMs).toBe(100);
    expect(m.series).toHaveLength(20);
    expect(m.series[1]).toMatchObject({ fromMs: 100, granted: 1, failed: 0 });
    expect(m.series[7]).toMatchObject({ fromMs: 700, failed: 1 });
    expect(m.series[2]?.heldShare).toBe(1);
    expect(m.series[1]?.heldShare).toBeCloseTo(0.98, 6);
    expect(m.series[10]?.heldShare).toBe(0);
  });

  it('measures an empty history as nothing, without dividing by zero', () => {
    const m = measureRun([]);
    expect(m).toMatchObject({ durationMs: 0, heldShare: 0, acquiresPerSecond: 0, duplicates: null, histogram: [], faults: [] });
    expect(m.series).toHaveLength(1);
    expect(latencyWords(m)).toMatch(/no acquire/i);
  });
});

describe('latencyBins', () => {
  it('puts every latency in one bar, the slowest in the last, spaced by ratio for a long tail', () => {
    const bins = latencyBins([1, 1, 2, 3, 100], 10);
    expect(bins).toHaveLength(10);
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(5);
    expect(bins[0]?.count).toBe(2);
    expect(bins[9]?.count).toBe(1);
    expect(bins[1]?.toMs).toBeCloseTo(100 ** 0.2, 6);
  });

  it('gives one bar when every latency is the same', () => {
    expect(latencyBins([4, 4, 4])).toEqual([{ fromMs: 4, toMs: 4, count: 3 }]);
  });
});

describe('binSize', () => {
  it('keeps a run within 60 intervals of a round length', () => {
    expect(binSize(3_000)).toBe(100);
    expect(binSize(30_000)).toBe(500);
    expect(binSize(120_000)).toBe(2_000);
  });
});

describe('words', () => {
  it('writes latencies to three significant digits', () => {
    expect([0.4123, 3.214, 14.14, 250.4, 2040].map((v) => formatMs(v))).toEqual(['0.412 ms', '3.21 ms', '14.1 ms', '250 ms', '2040 ms']);
  });

  it('compares two runs in one sentence: ratios of percentiles and duplicates side by side', () => {
    const fast = measureRun(history().at(0).attempt(1).at(2).acquired(1).at(10).attempt(2).at(12).failed(2).build(), { expectedExecutions: 1 });
    const b = history().at(0).attempt(1).at(7).acquired(1).at(10).attempt(2).at(17).failed(2);
    for (let i = 0; i < 4; i++) b.at(20 + i * 10).enter(1 + (i % 2)).at(25 + i * 10).exit(1 + (i % 2));
    const slow = measureRun(b.build(), { expectedExecutions: 1 });
    const words = compareWords(fast, slow);
    expect(words).toContain('P99 ×0.29 of the pinned run (2.00 ms vs 7.00 ms)');
    expect(words).toContain('0 duplicates vs 3');
  });
});

describe('a lock written by hand over several nodes', () => {
  it('counts one value sent to several nodes as one acquire, granted by a majority, from the first command to the last answer', () => {
    const events: HistoryEvent[] = [];
    let opId = 0;
    const push = (e: Record<string, unknown>) => events.push({ ...e, seq: events.length } as unknown as HistoryEvent);
    /** One client sends SET NX with one value to the given nodes at `t`, then each answers in turn. */
    const ask = (client: number, value: string, t: number, replies: Array<[number, 'OK' | null | 'fail', number]>) => {
      const ids = replies.map(([node]) => {
        push({ type: 'redis', phase: 'invoke', opId: ++opId, t, client, node, command: 'set', args: ['lock', value, 'NX', 'PX', '3000'] });
        return opId;
      });
      replies.forEach(([node, reply, at], i) =>
        push({ type: 'redis', phase: reply === 'fail' ? 'fail' : 'ok', opId: ids[i], t: at, client, node, command: 'set', ...(reply === 'fail' ? { error: 'ECONNREFUSED' } : { reply }) }),
      );
    };
    // Client 1 asks five nodes at once: three say OK, one nil, one cannot be reached.
    ask(1, 't1', 0, [[1, 'OK', 1], [2, 'OK', 1.5], [3, 'OK', 2], [4, null, 2.5], [5, 'fail', 3.8]]);
    // Client 2 asks them too: two OK are no majority of five.
    ask(2, 't2', 10, [[1, 'OK', 11], [2, 'OK', 11], [3, null, 11], [4, null, 11], [5, null, 11]]);
    // Client 1 sends its value to Node 1 again: a retry, so another acquire.
    ask(1, 't1', 20, [[1, null, 21]]);
    const { acquires, holds } = readAcquires(events);
    expect(acquires.map((a) => [a.client, a.outcome, a.latencyMs])).toEqual([
      [1, 'granted', 3.8],
      [2, 'failed', 1],
      [1, 'failed', 1],
    ]);
    expect(holds.filter((h) => h.to > h.from)).toEqual([{ client: 1, from: 3.8, to: 21 }]);
  });

  it('gives the figures of each kind when a run used both (lesson 8 times SET NX and Redlock in one program)', () => {
    const b = history().at(0).redis(1, 1, 'set', ['single', 'a', 'NX', 'PX', '1000'], 'OK', { tookMs: 1 });
    b.at(5).attempt(1, 'lock:redlock').at(9).acquired(1, 'lock:redlock');
    const m = measureRun(b.build());
    expect(m.bySource?.lockEvents.p99).toBeCloseTo(4, 2);
    expect(m.bySource?.setNx.p99).toBeCloseTo(1, 2);
  });
});
