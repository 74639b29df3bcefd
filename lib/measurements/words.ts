/**
 * The measurements in words: every figure a chart shows is also said in text ("P99 acquire 14.1 ms"), and two runs
 * are compared in a sentence ("P99 ×3.4 of the pinned run; 0 duplicates vs 4").
 */
import type { RunMeasurements } from './index';

/** A latency to three significant digits: "0.412 ms", "3.21 ms", "14.1 ms", "250 ms", "2040 ms". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const abs = Math.abs(ms);
  const digits = abs === 0 ? 0 : abs < 1 ? 3 : abs < 10 ? 2 : abs < 100 ? 1 : 0;
  return `${ms.toFixed(digits)} ms`;
}

/** A point or length of the run: "820 ms", "12.4 s". */
export function formatRunTime(ms: number): string {
  if (Math.abs(ms) < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function formatPercent(share: number): string {
  const p = share * 100;
  return `${p > 0 && p < 1 ? p.toFixed(1) : Math.round(p)} %`;
}

export function formatRate(perSecond: number): string {
  return perSecond >= 100 ? perSecond.toFixed(0) : perSecond >= 10 ? perSecond.toFixed(1) : perSecond.toFixed(2);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The latency figures, as a screen reader should hear them. */
export function latencyWords(m: RunMeasurements): string {
  const l = m.latency;
  if (l.count === 0) return 'No acquire was answered in this run, so there is no latency to show.';
  return `P50 acquire ${formatMs(l.p50)}, P95 ${formatMs(l.p95)}, P99 ${formatMs(l.p99)}, max ${formatMs(l.max)}, over ${plural(l.count, 'answered attempt')}.`;
}

/** For a run that used both kinds of acquire: each kind's percentiles, and how they compare. */
export function bySourceWords(m: RunMeasurements): string | null {
  if (!m.bySource) return null;
  const { lockEvents: r, setNx: s } = m.bySource;
  const times = ratio(r.p99, s.p99);
  return (
    `Redlock attempts: P50 ${formatMs(r.p50)}, P99 ${formatMs(r.p99)} (${r.count}). ` +
    `SET … NX: P50 ${formatMs(s.p50)}, P99 ${formatMs(s.p99)} (${s.count}).` +
    (times ? ` Redlock's P99 is ${times} of SET … NX's.` : '')
  );
}

export function outcomeWords(m: RunMeasurements): string {
  const t = m.totals;
  const asked = t.granted + t.failed + t.timeout + t.unanswered;
  if (asked === 0) return 'No client asked for a lock.';
  const parts = [`${plural(t.granted, 'acquire')} granted (${formatRate(m.acquiresPerSecond)} a second)`, `${t.failed} refused`, `${t.timeout} timed out`];
  if (t.unanswered > 0) parts.push(`${t.unanswered} never answered`);
  return `${parts.join(', ')}.`;
}

export function heldWords(m: RunMeasurements): string {
  return `Some client held the lock ${formatPercent(m.heldShare)} of the run (${formatRunTime(m.heldMs)} of ${formatRunTime(m.durationMs)}).`;
}

export function duplicateWords(m: RunMeasurements): string {
  if (m.jobs.length === 0) return 'No job ran.';
  if (m.duplicates === null) return `${plural(m.jobs.length, 'job')} ran; this lesson expects no particular count, so none is a duplicate.`;
  return `${plural(m.duplicates, 'duplicate execution')}.`;
}

/** What was counted as an acquire, in words. */
export function countedWords(m: RunMeasurements): string {
  const { lockEvents, setNx } = m.counted;
  const parts: string[] = [];
  if (lockEvents > 0) parts.push(`${plural(lockEvents, 'attempt')} of the redlock module (attempt → acquired or failed; a retry is a new attempt)`);
  if (setNx > 0) parts.push(`${plural(setNx, 'SET … NX acquire')} (sent → answered; OK is granted, nil refused; one value sent to several nodes at once is one acquire, granted by a majority)`);
  if (parts.length === 0) return 'Nothing in this run asked for a lock: no redlock attempt and no SET … NX.';
  return `Counted as acquires: ${parts.join(' and ')}.`;
}

/** "×3.4", "×0.52", or null when there is nothing to divide by. */
export function ratio(current: number, pinned: number): string | null {
  if (!(pinned > 0) || !Number.isFinite(current)) return null;
  const r = current / pinned;
  return `×${r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(1) : r.toFixed(2)}`;
}

/** This run against the pinned one, in one sentence: "P99 ×3.4 of the pinned run (14.1 ms vs 4.15 ms); 0 duplicates vs 4; …". */
export function compareWords(current: RunMeasurements, pinned: RunMeasurements): string {
  const parts: string[] = [];
  const a = current.latency;
  const b = pinned.latency;
  if (a.count > 0 && b.count > 0) {
    for (const [name, x, y] of [['P50', a.p50, b.p50], ['P99', a.p99, b.p99]] as const) {
      const r = ratio(x, y);
      parts.push(`${name} ${r ? `${r} of the pinned run` : formatMs(x)} (${formatMs(x)} vs ${formatMs(y)})`);
    }
  } else if (a.count === 0 && b.count === 0) {
    parts.push('no answered acquire in either run');
  } else {
    parts.push(a.count === 0 ? 'no answered acquire in this run, some in the pinned one' : 'answered acquires in this run, none in the pinned one');
  }
  if (current.duplicates !== null || pinned.duplicates !== null) {
    const count = (n: number | null) => (n === null ? 'not counted' : String(n));
    parts.push(current.duplicates !== null ? `${current.duplicates} duplicate${current.duplicates === 1 ? '' : 's'} vs ${count(pinned.duplicates)}` : `duplicates not counted vs ${count(pinned.duplicates)}`);
  }
  parts.push(`lock held ${formatPercent(current.heldShare)} of the time vs ${formatPercent(pinned.heldShare)}`);
  parts.push(`${formatRate(current.acquiresPerSecond)} acquires a second vs ${formatRate(pinned.acquiresPerSecond)}`);
  return `This run: ${parts.join('; ')}.`;
}
