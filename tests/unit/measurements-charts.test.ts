/** The charts' data: the histogram's bars on a log axis for a long tail, the over-time steps in acquires a second. */
import { describe, expect, it } from 'vitest';
import { latencyBins, measureRun } from '@/lib/measurements';
import { DEFAULT_COLORS, latencyChart, timeChart } from '@/components/measurements/chart-options';
import { history } from './helpers/history-builder';

const size = { width: 600, height: 200 };

describe('latencyChart', () => {
  it('puts each bar at the middle of its range on a log axis when the latencies have a long tail', () => {
    const bins = latencyBins([1, 2, 4, 100], 4);
    const chart = latencyChart(bins, { count: 4, p50: 2, p95: 100, p99: 100, max: 100, mean: 26.75 }, DEFAULT_COLORS, size);
    expect(chart.options.scales?.x?.distr).toBe(3);
    expect(chart.data[0][0]).toBeCloseTo(Math.sqrt(1 * 100 ** 0.25), 6);
    expect(chart.data[1]).toEqual([2, 1, 0, 1]);
  });

  it('uses an even axis when the latencies are close together', () => {
    const chart = latencyChart(latencyBins([2, 3, 4], 2), { count: 3, p50: 3, p95: 4, p99: 4, max: 4, mean: 3 }, DEFAULT_COLORS, size);
    expect(chart.options.scales?.x?.distr).toBeUndefined();
    expect(chart.data[0]).toEqual([2.5, 3.5]);
  });
});

describe('timeChart', () => {
  it('draws acquires a second from each interval’s counts, the last step running to the end of the run', () => {
    const m = measureRun(history().at(0).attempt(1).at(50).acquired(1).at(120).attempt(2).at(130).failed(2).at(250).log(1).build(), { origin: 0 });
    const chart = timeChart(m, DEFAULT_COLORS, size, 100);
    expect(m.binMs).toBe(100);
    expect(chart.data[0]).toEqual([0, 0.1, 0.2, 0.25]);
    expect(chart.data[1]).toEqual([10, 0, 0, 0]);
    expect(chart.data[2]).toEqual([0, 10, 0, 0]);
    expect(chart.options.hooks?.draw).toHaveLength(1);
  });
});
