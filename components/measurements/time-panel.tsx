'use client';
/** The run over time: acquires a second by outcome, the held share, and the faults in effect (the timeline's axis). */
import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import type { RunMeasurements } from '@/lib/measurements';
import { formatPercent, formatRunTime } from '@/lib/measurements/words';
import { timeChart } from './chart-options';
import { ChartTable } from './chart-table';
import { UPlotChart } from './uplot-chart';
import { useMeasureSay } from './use-measure-say';
import { useCheckerText } from '@/components/verdict/checker-text';
import styles from './measurements.module.css';

export function TimePanel({ m, cursorMs }: { m: RunMeasurements; cursorMs: number | null }) {
  const t = useTranslations('measurements');
  const say = useMeasureSay();
  const said = useCheckerText();
  const { locale } = say;
  const build = useCallback<Parameters<typeof UPlotChart>[0]['build']>((colors, size) => timeChart(m, colors, size, cursorMs, say), [m, cursorMs, say]);
  const time = (ms: number) => formatRunTime(ms, locale);
  const interval = time(m.binMs);
  const busiest = m.series.reduce((best, bin) => (bin.granted > (best?.granted ?? -1) ? bin : best), m.series[0]);
  const summary = t('time.summary', {
    duration: time(m.durationMs),
    interval,
    busiest: busiest && busiest.granted > 0 ? t('time.busiest', { granted: busiest.granted, from: time(busiest.fromMs) }) : '',
    faults: m.faults.length === 0 ? t('time.noFault') : t('time.faultBands', { n: m.faults.length }),
  });
  return (
    <section className={styles.time} aria-labelledby="measurements-time-title">
      <h3 id="measurements-time-title" className={styles.runTitle}>
        {t('time.title')}
      </h3>
      <ul className={styles.legend} aria-label={t('time.legend')}>
        <li data-series="granted">{t('time.granted')}</li>
        <li data-series="failed">{t('time.refused')}</li>
        <li data-series="timeout">{t('time.timedOut')}</li>
        <li data-series="held">{t('time.held')}</li>
        <li data-series="fault">{t('time.fault')}</li>
      </ul>
      <UPlotChart build={build} height={200} label={summary} />
      <ChartTable
        caption={t('time.caption', { interval })}
        head={[t('time.head.from'), t('time.head.granted'), t('time.head.refused'), t('time.head.timedOut'), t('time.head.held')]}
        rows={m.series.map((b) => [time(b.fromMs), b.granted, b.failed, b.timedOut, formatPercent(b.heldShare, locale)])}
      />
      {m.faults.length > 0 && (
        <ul className={styles.faults} aria-label={t('time.faultsLabel')}>
          {m.faults.map((f, i) => {
            // The fault's label is the lab server's sentence: in the page's language when the history has its words.
            const label = said({ message: f.label, words: f.labelWords });
            return (
              <li key={i}>
                {f.instant
                  ? t('time.faultAt', { label, at: time(f.from) })
                  : f.open
                    ? t('time.faultFromToEnd', { label, from: time(f.from) })
                    : t('time.faultFromTo', { label, from: time(f.from), to: time(f.to) })}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export function JobsTable({ m }: { m: RunMeasurements }) {
  const t = useTranslations('measurements');
  if (m.jobs.length === 0) return null;
  return (
    <table className={styles.table}>
      <caption>{m.duplicates === null ? t('jobs.captionUncounted') : t('jobs.caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('jobs.job')}</th>
          <th scope="col">{t('jobs.ran')}</th>
          <th scope="col">{t('jobs.expected')}</th>
          <th scope="col">{t('jobs.duplicates')}</th>
          <th scope="col">{t('jobs.cut')}</th>
        </tr>
      </thead>
      <tbody>
        {m.jobs.map((j) => (
          <tr key={j.job}>
            <th scope="row">{j.job}</th>
            <td>{j.completed}</td>
            <td>{j.expected ?? '—'}</td>
            <td>{j.duplicates ?? '—'}</td>
            <td>{j.cut + j.open}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
