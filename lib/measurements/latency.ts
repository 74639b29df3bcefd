import { build } from 'hdr-histogram-js';

/** The figures of a set of latencies, all in milliseconds. */
export interface LatencySummary { count: number; p50: number; p95: number; p99: number; max: number; mean: number }

/**
 * The histogram records whole microseconds: an acquire on loopback takes a fraction of a millisecond, so millisecond
 * buckets would put most of a fast run in one bucket. Three significant digits keep each percentile within 0.1 %.
 */
const MICROS_PER_MS = 1000;
const SIGNIFICANT_DIGITS = 3;

/** An empty HdrHistogram at microsecond resolution that grows as values come (no upper limit to choose). */
export function latencyHistogram(): ReturnType<typeof build> {
  return build({ bitBucketSize: 32, autoResize: true, lowestDiscernibleValue: 1, numberOfSignificantValueDigits: SIGNIFICANT_DIGITS, useWebAssembly: false });
}

/** A latency in ms as the histogram's unit (µs); what cannot be a latency (negative, NaN, ∞) is left out. */
export function toMicros(ms: number): number | null {
  if (!Number.isFinite(ms) || ms < 0) return null;
  return Math.round(ms * MICROS_PER_MS);
}

/**
 * Percentiles of latencies in ms, via an HdrHistogram at microsecond resolution. count 0 → all zero.
 * P50/P95/P99 are the histogram's (within its 0.1 % resolution); max and mean are exact, from the values themselves,
 * so "max" is the slowest acquire as it happened. Values that cannot be latencies (negative, not finite) are not counted.
 */
export function summarizeLatencies(ms: readonly number[]): LatencySummary {
  const histogram = latencyHistogram();
  let count = 0;
  let sum = 0;
  let max = 0;
  try {
    for (const value of ms) {
      const micros = toMicros(value);
      if (micros === null) continue;
      histogram.recordValue(micros);
      count += 1;
      sum += value;
      if (value > max) max = value;
    }
    if (count === 0) return { count: 0, p50: 0, p95: 0, p99: 0, max: 0, mean: 0 };
    const at = (percentile: number) => histogram.getValueAtPercentile(percentile) / MICROS_PER_MS;
    // The histogram reports a bucket's highest equivalent value, which can exceed the true max by its resolution.
    return { count, p50: Math.min(at(50), max), p95: Math.min(at(95), max), p99: Math.min(at(99), max), max, mean: sum / count };
  } finally {
    histogram.destroy();
  }
}
