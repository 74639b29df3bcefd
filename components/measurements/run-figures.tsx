'use client';
/** One run's figures and latency histogram: the column "This run" or "Pinned", side by side when comparing. */
import { useCallback, useId, useMemo } from 'react';
import { HISTOGRAM_BARS, latencyBins, type RunMeasurements } from '@/lib/measurements';
import { bySourceWords, duplicateWords, formatMs, formatPercent, formatRate, heldWords, latencyWords, outcomeWords } from '@/lib/measurements/words';
import { latencyChart } from './chart-options';
import { ChartTable } from './chart-table';
import { UPlotChart } from './uplot-chart';
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
  const headingId = useId();
  const bins = useMemo(() => (range ? latencyBins(m.latencies, HISTOGRAM_BARS, range) : m.histogram), [m, range]);
  const build = useCallback<Parameters<typeof UPlotChart>[0]['build']>((colors, size) => latencyChart(bins, m.latency, colors, size), [bins, m.latency]);
  const l = m.latency;
  const figures: Array<[string, string, string]> = [
    ['p50', 'P50 acquire', l.count > 0 ? formatMs(l.p50) : '—'],
    ['p95', 'P95 acquire', l.count > 0 ? formatMs(l.p95) : '—'],
    ['p99', 'P99 acquire', l.count > 0 ? formatMs(l.p99) : '—'],
    ['max', 'Max acquire', l.count > 0 ? formatMs(l.max) : '—'],
    ['rate', 'Acquires a second', formatRate(m.acquiresPerSecond)],
    ['failed', 'Refused', String(m.totals.failed)],
    ['timeout', 'Timed out', String(m.totals.timeout + m.totals.unanswered)],
    ['held', 'Lock held', formatPercent(m.heldShare)],
    ['duplicates', 'Duplicates', m.duplicates === null ? 'not counted' : String(m.duplicates)],
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
        {latencyWords(m)} {outcomeWords(m)} {heldWords(m)} {duplicateWords(m)}
      </p>
      {m.bySource && (
        <p className={styles.words} data-testid="figures-by-source">
          {bySourceWords(m)}
        </p>
      )}
      {bins.length > 0 ? (
        <>
          <UPlotChart build={build} height={170} label={`Acquire latency histogram. ${latencyWords(m)}`} />
          <ChartTable
            caption={`Acquire latency: attempts by latency. ${latencyWords(m)}`}
            head={['Latency', 'Attempts']}
            rows={bins.map((b) => [`${formatMs(b.fromMs)} – ${formatMs(b.toMs)}`, b.count])}
          />
        </>
      ) : null}
    </section>
  );
}
