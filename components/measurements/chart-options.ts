/**
 * The uPlot charts of the Measurements view, as options and data built from a run's measurements: the latency
 * histogram (with P50/P95/P99 marked) and the run over time (acquires by outcome, the held share, fault bands).
 * Free of React, so the benchmark draws exactly these in Chromium (bench/measurements.bench.ts).
 */
import uPlot from 'uplot';
import { logSpaced, type FaultBand, type LatencyBin, type LatencySummary, type RunMeasurements } from '@/lib/measurements';
import { ENGLISH_SAY, formatMs, type MeasureSay } from '@/lib/measurements/words';

export interface ChartColors {
  text: string;
  muted: string;
  grid: string;
  bar: string;
  granted: string;
  failed: string;
  timedOut: string;
  held: string;
  heldFill: string;
  band: string;
  bandEdge: string;
}

export const DEFAULT_COLORS: ChartColors = {
  text: '#1b1b1f',
  muted: '#55555f',
  grid: '#e4e4ea',
  bar: '#1f4fd1',
  granted: '#17733a',
  failed: '#b42318',
  timedOut: '#8a5a00',
  held: '#1f4fd1',
  heldFill: 'rgba(31, 79, 209, 0.12)',
  band: 'rgba(180, 35, 24, 0.16)',
  bandEdge: '#b42318',
};

/** The page's own colours (light or dark), read from its CSS variables. */
/** What both charts share: their size, no uPlot legend (the page has its own) and a cursor that neither zooms nor marks. */
function staticChart(size: { width: number; height: number }) {
  return { width: size.width, height: size.height, legend: { show: false }, cursor: { drag: { x: false, y: false }, points: { show: false } } };
}

export function colorsOf(element: Element): ChartColors {
  const css = getComputedStyle(element);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--tl-text', DEFAULT_COLORS.text),
    muted: v('--tl-muted', DEFAULT_COLORS.muted),
    grid: v('--tl-grid', DEFAULT_COLORS.grid),
    bar: v('--tl-hold', DEFAULT_COLORS.bar),
    granted: v('--up', DEFAULT_COLORS.granted),
    failed: v('--down', DEFAULT_COLORS.failed),
    timedOut: v('--paused', DEFAULT_COLORS.timedOut),
    held: v('--tl-hold', DEFAULT_COLORS.held),
    heldFill: DEFAULT_COLORS.heldFill,
    band: v('--tl-band', DEFAULT_COLORS.band),
    bandEdge: v('--tl-band-edge', DEFAULT_COLORS.bandEdge),
  };
}

export interface Chart {
  options: uPlot.Options;
  data: uPlot.AlignedData;
}

const FONT = '11px system-ui, sans-serif';
/** Bars and steps say enough: a dot on every value only clutters them. */
const NO_POINTS = { show: false } as const;

function axis(colors: ChartColors, extra: Partial<uPlot.Axis> = {}): uPlot.Axis {
  return { stroke: colors.muted, font: FONT, labelFont: FONT, grid: { stroke: colors.grid, width: 1 }, ticks: { stroke: colors.grid, width: 1 }, ...extra };
}

/** A vertical line with a label at the top of the plot, in canvas pixels. */
function markAt(u: uPlot, x: number, label: string, color: string, row: number): void {
  const ctx = u.ctx;
  const px = Math.round(u.valToPos(x, 'x', true));
  if (px < u.bbox.left - 1 || px > u.bbox.left + u.bbox.width + 1) return;
  const ratio = window.devicePixelRatio || 1;
  ctx.save();
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = ratio;
  ctx.setLineDash([4 * ratio, 3 * ratio]);
  ctx.beginPath();
  ctx.moveTo(px, u.bbox.top);
  ctx.lineTo(px, u.bbox.top + u.bbox.height);
  ctx.stroke();
  ctx.font = `${11 * ratio}px system-ui, sans-serif`;
  ctx.textBaseline = 'top';
  const right = px > u.bbox.left + u.bbox.width * 0.75;
  ctx.textAlign = right ? 'right' : 'left';
  ctx.fillText(label, px + (right ? -3 : 3) * ratio, u.bbox.top + (2 + row * 13) * ratio);
  ctx.restore();
}

/**
 * The latency histogram: one bar per range of latencies (equal widths on a log axis when the run has a long tail),
 * with P50, P95 and P99 drawn as labelled lines.
 */
export function latencyChart(
  bins: readonly LatencyBin[],
  summary: LatencySummary,
  colors: ChartColors,
  size: { width: number; height: number },
  say: MeasureSay = ENGLISH_SAY,
): Chart {
  const { t, locale } = say;
  const log = logSpaced(bins);
  const xs = bins.map((b) => (log ? Math.sqrt(b.fromMs * b.toMs) : (b.fromMs + b.toMs) / 2));
  const counts = bins.map((b) => b.count);
  const first = bins[0];
  const last = bins[bins.length - 1];
  const range: [number, number] = first && last ? [first.fromMs, last.toMs > first.fromMs ? last.toMs : first.fromMs + 1] : [0, 1];
  const marks: Array<[number, string]> = summary.count > 0 ? [[summary.p50, `P50 ${formatMs(summary.p50, locale)}`], [summary.p95, `P95 ${formatMs(summary.p95, locale)}`], [summary.p99, `P99 ${formatMs(summary.p99, locale)}`]] : [];
  return {
    data: [xs, counts],
    options: {
      ...staticChart(size),
      scales: {
        x: { time: false, ...(log ? { distr: 3, log: 10 } : {}), range: () => range },
        y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.25] },
      },
      axes: [
        axis(colors, { label: t('chart.latencyAxis'), size: 36, values: (_u, splits) => splits.map((v) => (v == null ? '' : formatTick(v, locale))) }),
        axis(colors, { label: t('chart.attempts'), size: 44 }),
      ],
      series: [
        {},
        { label: t('chart.attempts'), stroke: colors.bar, fill: colors.bar, width: 0, points: NO_POINTS, paths: uPlot.paths.bars?.({ size: [0.92, Infinity], align: 0 }) },
      ],
      hooks: {
        draw: [(u) => marks.forEach(([x, label], i) => markAt(u, x, label, colors.text, i))],
      },
    },
  };
}

/** A tick of the latency axis: "2040", "15", "1.5", "0.25" (with the language's decimal sign). */
function formatTick(v: number, locale: string): string {
  const f = (options: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, { useGrouping: false, ...options }).format(v);
  if (v >= 10) return f({ maximumFractionDigits: 0 });
  if (v >= 1) return f({ maximumFractionDigits: 1 });
  return f({ maximumSignificantDigits: 2 });
}

/**
 * The run over time, on the timeline's axis (seconds from the run's start): acquires a second by outcome, the share
 * of each interval some client held the lock (right axis), and the faults in effect as shaded bands behind them.
 */
export function timeChart(
  m: RunMeasurements,
  colors: ChartColors,
  size: { width: number; height: number },
  cursorMs: number | null = null,
  say: MeasureSay = ENGLISH_SAY,
): Chart {
  const { t } = say;
  const perSecond = 1000 / m.binMs;
  const xs: number[] = [];
  const granted: number[] = [];
  const failed: number[] = [];
  const timedOut: number[] = [];
  const held: number[] = [];
  for (const bin of m.series) {
    xs.push(bin.fromMs / 1000);
    granted.push(bin.granted * perSecond);
    failed.push(bin.failed * perSecond);
    timedOut.push(bin.timedOut * perSecond);
    held.push(bin.heldShare * 100);
  }
  // The last step runs to the end of its interval.
  const lastBin = m.series[m.series.length - 1];
  if (lastBin) {
    xs.push(lastBin.toMs / 1000);
    granted.push(granted[granted.length - 1] ?? 0);
    failed.push(failed[failed.length - 1] ?? 0);
    timedOut.push(timedOut[timedOut.length - 1] ?? 0);
    held.push(held[held.length - 1] ?? 0);
  }
  const stepped = uPlot.paths.stepped?.({ align: 1 });
  const bands = m.faults;
  return {
    data: [xs, granted, failed, timedOut, held],
    options: {
      ...staticChart(size),
      scales: {
        x: { time: false, range: (_u, min, max) => [0, Math.max(max, min + 0.1)] },
        y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.15] },
        held: { range: [0, 100] },
      },
      axes: [
        axis(colors, { label: t('chart.timeAxis'), size: 36 }),
        axis(colors, { label: t('chart.rateAxis'), size: 48 }),
        axis(colors, { scale: 'held', side: 1, label: t('chart.heldAxis'), size: 44, grid: { show: false } }),
      ],
      series: [
        {},
        { label: t('chart.granted'), points: NO_POINTS, stroke: colors.granted, width: 2, paths: stepped },
        { label: t('chart.refused'), points: NO_POINTS, stroke: colors.failed, width: 2, dash: [6, 3], paths: stepped },
        { label: t('chart.timedOut'), points: NO_POINTS, stroke: colors.timedOut, width: 2, dash: [2, 2], paths: stepped },
        { label: t('chart.held'), points: NO_POINTS, scale: 'held', stroke: colors.held, fill: colors.heldFill, width: 1, paths: stepped },
      ],
      hooks: {
        drawClear: [(u) => drawBands(u, bands, colors)],
        // The time-travel cursor, where the timeline has it.
        draw: cursorMs === null ? [] : [(u) => markAt(u, cursorMs / 1000, t('chart.cursor'), colors.text, 0)],
      },
    },
  };
}

function drawBands(u: uPlot, bands: readonly FaultBand[], colors: ChartColors): void {
  const ctx = u.ctx;
  const ratio = window.devicePixelRatio || 1;
  const { top, height, left, width } = u.bbox;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  for (const band of bands) {
    const x0 = u.valToPos(band.from / 1000, 'x', true);
    const x1 = u.valToPos(band.to / 1000, 'x', true);
    ctx.fillStyle = colors.band;
    ctx.strokeStyle = colors.bandEdge;
    ctx.lineWidth = ratio;
    if (band.instant || x1 - x0 < 2 * ratio) {
      ctx.beginPath();
      ctx.moveTo(Math.round(x0), top);
      ctx.lineTo(Math.round(x0), top + height);
      ctx.stroke();
    } else {
      ctx.fillRect(x0, top, x1 - x0, height);
      ctx.beginPath();
      ctx.moveTo(Math.round(x0), top);
      ctx.lineTo(Math.round(x0), top + height);
      ctx.stroke();
    }
    ctx.fillStyle = colors.bandEdge;
    ctx.font = `${10 * ratio}px system-ui, sans-serif`;
    ctx.textBaseline = 'bottom';
    ctx.fillText(band.target, x0 + 3 * ratio, top + height - 2 * ratio);
  }
  ctx.restore();
}
