/** summarizeLatencies: percentiles from an HdrHistogram at microsecond resolution, against values worked out by hand. */
import { describe, expect, it } from 'vitest';
import { summarizeLatencies } from '@/lib/measurements/latency';

describe('summarizeLatencies', () => {
  it('gives all zeros for no latencies', () => {
    expect(summarizeLatencies([])).toEqual({ count: 0, p50: 0, p95: 0, p99: 0, max: 0, mean: 0 });
  });

  it('reads percentiles of 1..100 ms as the nearest-rank values, within the histogram’s resolution', () => {
    const ms = Array.from({ length: 100 }, (_, i) => i + 1);
    const s = summarizeLatencies(ms);
    expect(s.count).toBe(100);
    expect(s.p50).toBeCloseTo(50, 1);
    expect(s.p95).toBeCloseTo(95, 1);
    expect(s.p99).toBeCloseTo(99, 1);
    expect(s.max).toBe(100);
    expect(s.mean).toBeCloseTo(50.5, 10);
  });

  it('tells sub-millisecond latencies apart (microsecond resolution)', () => {
    const s = summarizeLatencies([0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.75]);
    expect(s.p50).toBeCloseTo(0.2, 3);
    expect(s.p99).toBeCloseTo(0.75, 3);
    expect(s.max).toBe(0.75);
  });

  it('keeps a long tail: one slow acquire among many fast ones is the P99 and the max, not the P50', () => {
    const ms = [...Array.from({ length: 98 }, () => 3), 40, 250];
    const s = summarizeLatencies(ms);
    expect(s.p50).toBeCloseTo(3, 2);
    expect(s.p95).toBeCloseTo(3, 2);
    expect(s.p99).toBeCloseTo(40, 1);
    expect(s.max).toBe(250);
  });

  it('never reports a percentile above the true max', () => {
    const s = summarizeLatencies([14.1234567]);
    expect(s.p99).toBeLessThanOrEqual(s.max);
    expect(s.p50).toBeCloseTo(14.123, 2);
  });

  it('leaves out what cannot be a latency', () => {
    const s = summarizeLatencies([5, -1, Number.NaN, Number.POSITIVE_INFINITY, 7]);
    expect(s.count).toBe(2);
    expect(s.max).toBe(7);
    expect(s.mean).toBe(6);
  });
});
