/**
 * The measurements in words: every figure a chart shows is also said in text ("P99 acquire 14.1 ms"), and two runs
 * are compared in a sentence ("P99 ×3.4 of the pinned run; 0 duplicates vs 4"). The sentences are the
 * `measurements` catalogue's (messages/<locale>/measurements.json): each function takes the page's translator and
 * language, English when none is given (as the unit tests read them). Numbers go through the language (a decimal
 * comma in Norwegian); ms, s and % stay symbols.
 */
import { createTranslator } from 'next-intl';
import englishMessages from '@/messages/en/measurements.json' with { type: 'json' };
import type { RunMeasurements } from './index';

/** A translator of the `measurements` namespace and the language it speaks. */
export interface MeasureSay {
  t(key: string, values?: Record<string, string | number>): string;
  locale: string;
}

const englishT = createTranslator({ locale: 'en', messages: { measurements: englishMessages }, namespace: 'measurements' });
export const ENGLISH_SAY: MeasureSay = { t: (key, values) => (englishT as unknown as MeasureSay['t'])(key, values), locale: 'en' };

const formats = new Map<string, Intl.NumberFormat>();
/** `value` with exactly `digits` decimals in `locale`, without grouping ("2040", as a figure beside a unit). */
function fixed(value: number, digits: number, locale: string): string {
  const key = `${locale}:${digits}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false })));
  return f.format(value);
}

/** A latency to three significant digits: "0.412 ms", "3.21 ms", "14.1 ms", "250 ms", "2040 ms". */
export function formatMs(ms: number, locale = 'en'): string {
  if (!Number.isFinite(ms)) return '—';
  const abs = Math.abs(ms);
  const digits = abs === 0 ? 0 : abs < 1 ? 3 : abs < 10 ? 2 : abs < 100 ? 1 : 0;
  return `${fixed(ms, digits, locale)} ms`;
}

/** A point or length of the run: "820 ms", "12.4 s". */
export function formatRunTime(ms: number, locale = 'en'): string {
  if (Math.abs(ms) < 1000) return `${fixed(Math.round(ms), 0, locale)} ms`;
  return `${fixed(ms / 1000, ms < 10_000 ? 2 : 1, locale)} s`;
}

export function formatPercent(share: number, locale = 'en'): string {
  const p = share * 100;
  return `${p > 0 && p < 1 ? fixed(p, 1, locale) : fixed(Math.round(p), 0, locale)} %`;
}

export function formatRate(perSecond: number, locale = 'en'): string {
  return fixed(perSecond, perSecond >= 100 ? 0 : perSecond >= 10 ? 1 : 2, locale);
}

/** The latency figures, as a screen reader should hear them. */
export function latencyWords(m: RunMeasurements, say: MeasureSay = ENGLISH_SAY): string {
  const l = m.latency;
  const { t, locale } = say;
  if (l.count === 0) return t('words.noLatency');
  return t('words.latency', { p50: formatMs(l.p50, locale), p95: formatMs(l.p95, locale), p99: formatMs(l.p99, locale), max: formatMs(l.max, locale), count: l.count });
}

/** For a run that used both kinds of acquire: each kind's percentiles, and how they compare. */
export function bySourceWords(m: RunMeasurements, say: MeasureSay = ENGLISH_SAY): string | null {
  if (!m.bySource) return null;
  const { t, locale } = say;
  const { lockEvents: r, setNx: s } = m.bySource;
  const times = ratio(r.p99, s.p99, locale);
  return (
    t('words.bySource', {
      rp50: formatMs(r.p50, locale),
      rp99: formatMs(r.p99, locale),
      rcount: r.count,
      sp50: formatMs(s.p50, locale),
      sp99: formatMs(s.p99, locale),
      scount: s.count,
    }) + (times ? t('words.bySourceRatio', { times }) : '')
  );
}

export function outcomeWords(m: RunMeasurements, say: MeasureSay = ENGLISH_SAY): string {
  const t = m.totals;
  const asked = t.granted + t.failed + t.timeout + t.unanswered;
  if (asked === 0) return say.t('words.noAsk');
  return say.t('words.outcome', {
    granted: t.granted,
    rate: formatRate(m.acquiresPerSecond, say.locale),
    failed: t.failed,
    timeout: t.timeout,
    unanswered: t.unanswered > 0 ? say.t('words.unanswered', { n: t.unanswered }) : '',
  });
}

export function heldWords(m: RunMeasurements, say: MeasureSay = ENGLISH_SAY): string {
  const { t, locale } = say;
  return t('words.held', { share: formatPercent(m.heldShare, locale), held: formatRunTime(m.heldMs, locale), duration: formatRunTime(m.durationMs, locale) });
}

export function duplicateWords(m: RunMeasurements, say: MeasureSay = ENGLISH_SAY): string {
  if (m.jobs.length === 0) return say.t('words.noJob');
  if (m.duplicates === null) return say.t('words.jobsUncounted', { n: m.jobs.length });
  return say.t('words.duplicates', { n: m.duplicates });
}

/** What was counted as an acquire, in words. */
export function countedWords(m: RunMeasurements, say: MeasureSay = ENGLISH_SAY): string {
  const { lockEvents, setNx } = m.counted;
  const { t } = say;
  const parts: string[] = [];
  if (lockEvents > 0) parts.push(t('words.countedLock', { n: lockEvents }));
  if (setNx > 0) parts.push(t('words.countedSetNx', { n: setNx }));
  const [a, b] = parts;
  if (a === undefined) return t('words.countedNone');
  return b === undefined ? t('words.countedOne', { a }) : t('words.countedBoth', { a, b });
}

/** "×3.4", "×0.52", or null when there is nothing to divide by. */
export function ratio(current: number, pinned: number, locale = 'en'): string | null {
  if (!(pinned > 0) || !Number.isFinite(current)) return null;
  const r = current / pinned;
  return `×${fixed(r, r >= 10 ? 0 : r >= 1 ? 1 : 2, locale)}`;
}

/** This run against the pinned one, in one sentence: "P99 ×3.4 of the pinned run (14.1 ms vs 4.15 ms); 0 duplicates vs 4; …". */
export function compareWords(current: RunMeasurements, pinned: RunMeasurements, say: MeasureSay = ENGLISH_SAY): string {
  const { t, locale } = say;
  const parts: string[] = [];
  const a = current.latency;
  const b = pinned.latency;
  if (a.count > 0 && b.count > 0) {
    for (const [name, x, y] of [['P50', a.p50, b.p50], ['P99', a.p99, b.p99]] as const) {
      const r = ratio(x, y, locale);
      const figures = { name, x: formatMs(x, locale), y: formatMs(y, locale) };
      parts.push(r ? t('compare.ratio', { ...figures, ratio: r }) : t('compare.plain', figures));
    }
  } else if (a.count === 0 && b.count === 0) {
    parts.push(t('compare.noneEither'));
  } else {
    parts.push(a.count === 0 ? t('compare.noneThis') : t('compare.nonePinned'));
  }
  if (current.duplicates !== null || pinned.duplicates !== null) {
    const count = (n: number | null) => (n === null ? t('compare.notCounted') : String(n));
    parts.push(
      current.duplicates !== null
        ? t('compare.duplicates', { n: current.duplicates, pinned: count(pinned.duplicates) })
        : t('compare.duplicatesUncounted', { pinned: count(pinned.duplicates) }),
    );
  }
  parts.push(t('compare.held', { a: formatPercent(current.heldShare, locale), b: formatPercent(pinned.heldShare, locale) }));
  parts.push(t('compare.rate', { a: formatRate(current.acquiresPerSecond, locale), b: formatRate(pinned.acquiresPerSecond, locale) }));
  return t('compare.sentence', { parts: parts.join(t('compare.separator')) });
}
