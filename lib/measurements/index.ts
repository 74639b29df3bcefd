/**
 * A run's measurements, computed from its history alone (so a run opened from a file measures the same as it did
 * live): acquire latencies (HdrHistogram percentiles), acquires over time, the share of the run some client held the
 * lock, executions of each job, and the faults in effect. Every time here counts from the run's start (`origin`,
 * RunInfo.startedAt), as the timeline's axis does. Pure: no DOM, no Node.
 */
import type { CheckerOptions } from '../checker/types';
import type { HistoryEvent } from '../history';
import { heldIntervals, readAcquires, type Acquire, type AcquireOutcome } from './acquires';
import { faultBands, type FaultBand } from './faults';
import { jobExecutions, type JobExecutions } from './jobs';
import { summarizeLatencies, type LatencySummary } from './latency';

export type { Acquire, AcquireOutcome, AcquireSource, Hold } from './acquires';
export type { FaultBand } from './faults';
export type { JobExecutions } from './jobs';
export type { LatencySummary } from './latency';
export { summarizeLatencies } from './latency';

export interface MeasureOptions {
  /** Lab-clock time the run counts from (RunInfo.startedAt); default: the first event's time. */
  origin?: number;
  /** Lab-clock time the run is measured to; default: the last event's time. */
  endT?: number;
  /** The lesson's expected executions per job (CheckerSettings.expectedExecutions). */
  expectedExecutions?: CheckerOptions['expectedExecutions'];
}

/** One bar of the latency histogram (for drawing; the figures come from the HdrHistogram). */
export interface LatencyBin {
  fromMs: number;
  toMs: number;
  count: number;
}

/** One interval of the run: its acquires by outcome, and how much of it some client held the lock. */
export interface TimeBin {
  /** From the run's start, ms. */
  fromMs: number;
  toMs: number;
  granted: number;
  failed: number;
  timedOut: number;
  /** 0..1 of this interval. */
  heldShare: number;
}

export interface RunMeasurements {
  /** The run's length measured, ms (origin → end). */
  durationMs: number;
  events: number;
  /** What was counted as acquires (lib/lock-ops): lock events (the redlock module) and hand-written ones (`setNx`: SET … NX, SETNX, acquire scripts). */
  counted: { lockEvents: number; setNx: number };
  totals: Record<AcquireOutcome, number>;
  /** Latencies of answered attempts, granted or not (an answer costs the same round trips either way). */
  latency: LatencySummary;
  /**
   * The same figures for each kind of acquire the run used, when it used both (lesson 8 times a single node's SET NX
   * and Redlock in one program): redlock attempts and hand-written acquires (SET … NX, SETNX, acquire scripts).
   */
  bySource: { lockEvents: LatencySummary; setNx: LatencySummary } | null;
  /** Every answered attempt's latency, ms, in the order answered: what the histogram and its table are drawn from. */
  latencies: number[];
  histogram: LatencyBin[];
  /** Interval length of `series`, ms. */
  binMs: number;
  series: TimeBin[];
  /** Time some client held a lock, and its share of the run. */
  heldMs: number;
  heldShare: number;
  /** Granted acquires per second over the whole run. */
  acquiresPerSecond: number;
  jobs: JobExecutions[];
  /** Sum of the duplicates of the jobs that have an expected count; null when the lesson expects no count. */
  duplicates: number | null;
  /** Times from the run's start. */
  faults: FaultBand[];
}

export const HISTOGRAM_BARS = 24;
/** At most this many intervals over time: readable as bars on a phone, and as rows of a table. */
const MAX_TIME_BINS = 60;
const BIN_SIZES_MS = [100, 200, 250, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000];

export function measureRun(history: readonly HistoryEvent[], options: MeasureOptions = {}): RunMeasurements {
  const origin = options.origin ?? history[0]?.t ?? 0;
  const endT = Math.max(origin, options.endT ?? history[history.length - 1]?.t ?? origin);
  const durationMs = endT - origin;
  const { acquires, holds } = readAcquires(history, endT);

  const totals: Record<AcquireOutcome, number> = { granted: 0, failed: 0, timeout: 0, unanswered: 0 };
  const counted = { lockEvents: 0, setNx: 0 };
  const latencies: number[] = [];
  const bySource = { lockEvents: [] as number[], setNx: [] as number[] };
  for (const a of acquires) {
    totals[a.outcome] += 1;
    if (a.source === 'lock-event') counted.lockEvents += 1;
    else counted.setNx += 1;
    if (a.latencyMs === null) continue;
    latencies.push(a.latencyMs);
    (a.source === 'lock-event' ? bySource.lockEvents : bySource.setNx).push(a.latencyMs);
  }

  const held = heldIntervals(holds).map((h) => ({ from: Math.max(h.from, origin), to: Math.min(h.to, endT) })).filter((h) => h.to > h.from);
  const heldMs = held.reduce((sum, h) => sum + (h.to - h.from), 0);
  const binMs = binSize(durationMs);
  const jobs = jobExecutions(history, options.expectedExecutions);
  const judged = jobs.filter((j) => j.duplicates !== null);

  return {
    durationMs,
    events: history.length,
    counted,
    totals,
    latency: summarizeLatencies(latencies),
    bySource:
      bySource.lockEvents.length > 0 && bySource.setNx.length > 0
        ? { lockEvents: summarizeLatencies(bySource.lockEvents), setNx: summarizeLatencies(bySource.setNx) }
        : null,
    latencies,
    histogram: latencyBins(latencies),
    binMs,
    series: timeSeries(acquires, held, origin, durationMs, binMs),
    heldMs,
    heldShare: durationMs > 0 ? heldMs / durationMs : 0,
    acquiresPerSecond: durationMs > 0 ? totals.granted / (durationMs / 1000) : 0,
    jobs,
    // With an expected count set, a run where no job ran has no duplicates (rather than none counted).
    duplicates: judged.length > 0 || options.expectedExecutions !== undefined ? judged.reduce((sum, j) => sum + (j.duplicates ?? 0), 0) : null,
    faults: faultBands(history, endT).map((b) => ({ ...b, from: b.from - origin, to: b.to - origin })),
  };
}

/** The smallest round interval that keeps the run within MAX_TIME_BINS bars. */
export function binSize(durationMs: number): number {
  for (const size of BIN_SIZES_MS) if (durationMs / size <= MAX_TIME_BINS) return size;
  return Math.ceil(durationMs / MAX_TIME_BINS / 60_000) * 60_000;
}

/**
 * Bars for drawing: spaced by ratio (equal widths on a log axis) when latencies span more than a factor of four — a
 * fast majority and a slow tail both stay visible — and evenly otherwise.
 */
export function latencyBins(latencies: readonly number[], bars = HISTOGRAM_BARS, range?: { lo: number; hi: number }): LatencyBin[] {
  if (latencies.length === 0) return [];
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of latencies) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  // Two runs compared share one range, so a bar means the same latencies in both.
  if (range) {
    lo = Math.min(lo, range.lo);
    hi = Math.max(hi, range.hi);
  }
  if (hi <= lo) return [{ fromMs: lo, toMs: hi, count: latencies.length }];
  const logScale = lo > 0 && hi / lo > 4;
  const edges: number[] = [];
  for (let i = 0; i <= bars; i++) edges.push(logScale ? lo * (hi / lo) ** (i / bars) : lo + ((hi - lo) * i) / bars);
  edges[bars] = hi;
  const counts = new Array<number>(bars).fill(0);
  for (const v of latencies) {
    // The last edge is inclusive, so the slowest value lands in the last bar.
    let a = 0;
    let b = bars - 1;
    while (a < b) {
      const mid = (a + b + 1) >>> 1;
      if ((edges[mid] ?? Infinity) <= v) a = mid;
      else b = mid - 1;
    }
    counts[a] = (counts[a] ?? 0) + 1;
  }
  return counts.map((count, i) => ({ fromMs: edges[i] ?? 0, toMs: edges[i + 1] ?? hi, count }));
}

/** Whether bars of this range are spaced by ratio (drawn on a log axis). */
export const logSpaced = (bins: readonly LatencyBin[]): boolean => {
  const first = bins[0];
  const last = bins[bins.length - 1];
  return bins.length > 1 && first !== undefined && last !== undefined && first.fromMs > 0 && last.toMs / first.fromMs > 4;
};

function timeSeries(acquires: readonly Acquire[], held: ReadonlyArray<{ from: number; to: number }>, origin: number, durationMs: number, binMs: number): TimeBin[] {
  const n = Math.max(1, Math.ceil(durationMs / binMs));
  const bins: TimeBin[] = [];
  for (let i = 0; i < n; i++) bins.push({ fromMs: i * binMs, toMs: Math.min((i + 1) * binMs, Math.max(durationMs, binMs)), granted: 0, failed: 0, timedOut: 0, heldShare: 0 });
  const binOf = (t: number) => Math.min(n - 1, Math.max(0, Math.floor((t - origin) / binMs)));
  for (const a of acquires) {
    // An acquire belongs to the interval in which it was answered; one never answered counts where it was asked.
    const bin = bins[binOf(a.to ?? a.from)];
    if (!bin) continue;
    if (a.outcome === 'granted') bin.granted += 1;
    else if (a.outcome === 'failed') bin.failed += 1;
    else bin.timedOut += 1;
  }
  for (const h of held) {
    const from = h.from - origin;
    const to = h.to - origin;
    for (let i = Math.floor(from / binMs); i < n && i * binMs < to; i++) {
      const bin = bins[i];
      if (!bin) continue;
      const overlap = Math.min(to, bin.toMs) - Math.max(from, bin.fromMs);
      if (overlap > 0) bin.heldShare += overlap;
    }
  }
  for (const bin of bins) {
    const length = bin.toMs - bin.fromMs;
    bin.heldShare = length > 0 ? Math.min(1, bin.heldShare / length) : 0;
  }
  return bins;
}
