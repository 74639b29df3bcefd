'use client';
/** One run's figures and latency histogram: the column "This run" or "Pinned", side by side when comparing. */
import { useTranslations } from 'next-intl';
import { useCallback, useId, useMemo } from 'react';
import { HISTOGRAM_BARS, latencyBins, type RunMeasurements } from '@/lib/measurements';
import { bySourceWords, duplicateWords, formatMs, formatPercent, formatRate, heldWords, latencyWords, outcomeWords } from '@/lib/measurements/words';
import { latencyChart } from './chart-options';
import { ChartTable } from './chart-table';
import { UPlotChart } from './uplot-chart';
import { useMeasureSay } from './use-measure-say';
import styles from './measurements.module.css';

export interface RunFiguresProps {
  title: string;
  /** Which run, in words (under the title). */
  about: string;
  m: RunMeasurements;
  /** Latencies shared with the run compared beside this one, so both histograms draw the same bars. */
  range?: { lo: number; hi: number };
}

export function RunFigures({ title, about, m, range }: RunFiguresProps) {
  const t = useTranslations('measurements');
  const say = useMeasureSay();
  const { locale } = say;
  const headingId = useId();
  const bins = useMemo(() => (range ? latencyBins(m.latencies, HISTOGRAM_BARS, range) : m.histogram), [m, range]);
  const build = useCallback<Parameters<typeof UPlotChart>[0]['build']>((colors, size) => latencyChart(bins, m.latency, colors, size, say), [bins, m.latency, say]);
  const l = m.latency;
  const figures: Array<[string, string, string]> = [
    ['p50', t('figures.p50'), l.count > 0 ? formatMs(l.p50, locale) : '—'],
    ['p95', t('figures.p95'), l.count > 0 ? formatMs(l.p95, locale) : '—'],
    ['p99', t('figures.p99'), l.count > 0 ? formatMs(l.p99, locale) : '—'],
    ['max', t('figures.max'), l.count > 0 ? formatMs(l.max, locale) : '—'],
    ['rate', t('figures.rate'), formatRate(m.acquiresPerSecond, locale)],
    ['failed', t('figures.failed'), String(m.totals.failed)],
    ['timeout', t('figures.timeout'), String(m.totals.timeout + m.totals.unanswered)],
    ['held', t('figures.held'), formatPercent(m.heldShare, locale)],
    ['duplicates', t('figures.duplicates'), m.duplicates === null ? t('figures.notCounted') : String(m.duplicates)],
  ];
  return (
    <section className={styles.run} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.runTitle}>
        {title}
      </h3>
      <p className={styles.about}>{about}</p>
      <dl className={styles.figures}>
        {figures.map(([key, name, value]) => (
          <div key={key} className={styles.figure}>
            <dt>{name}</dt>
            <dd data-testid={`figure-${key}`}>{value}</dd>
          </div>
        ))}
      </dl>
      <p className={styles.words}>
        {latencyWords(m, say)} {outcomeWords(m, say)} {heldWords(m, say)} {duplicateWords(m, say)}
      </p>
      {m.bySource && (
        <p className={styles.words} data-testid="figures-by-source">
          {bySourceWords(m, say)}
        </p>
      )}
      {bins.length > 0 ? (
        <>
          <UPlotChart build={build} height={170} label={t('histogramLabel', { words: latencyWords(m, say) })} />
          <ChartTable
            caption={t('histogramCaption', { words: latencyWords(m, say) })}
            head={[t('histogramHead.latency'), t('histogramHead.attempts')]}
            rows={bins.map((b) => [`${formatMs(b.fromMs, locale)} – ${formatMs(b.toMs, locale)}`, b.count])}
          />
        </>
      ) : null}
    </section>
  );
}
