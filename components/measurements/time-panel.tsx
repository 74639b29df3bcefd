'use client';
/** The run over time: acquires a second by outcome, the held share, and the faults in effect (the timeline's axis). */
import { useCallback } from 'react';
import type { RunMeasurements } from '@/lib/measurements';
import { formatPercent, formatRunTime } from '@/lib/measurements/words';
import { timeChart } from './chart-options';
import { ChartTable } from './chart-table';
import { UPlotChart } from './uplot-chart';
import styles from './measurements.module.css';

export function TimePanel({ m, cursorMs }: { m: RunMeasurements; cursorMs: number | null }) {
  const build = useCallback<Parameters<typeof UPlotChart>[0]['build']>((colors, size) => timeChart(m, colors, size, cursorMs), [m, cursorMs]);
  const interval = formatRunTime(m.binMs);
  const busiest = m.series.reduce((best, bin) => (bin.granted > (best?.granted ?? -1) ? bin : best), m.series[0]);
  const summary =
    `Acquires over ${formatRunTime(m.durationMs)} in intervals of ${interval}` +
    (busiest && busiest.granted > 0 ? `; the most granted in one interval: ${busiest.granted}, from ${formatRunTime(busiest.fromMs)}` : '') +
    `. ${m.faults.length === 0 ? 'No fault was injected during the run.' : `${m.faults.length} fault${m.faults.length === 1 ? '' : 's'} shown as bands.`}`;
  return (
    <section className={styles.time} aria-labelledby="measurements-time-title">
      <h3 id="measurements-time-title" className={styles.runTitle}>
        This run over time
      </h3>
      <ul className={styles.legend} aria-label="Legend">
        <li data-series="granted">granted a second</li>
        <li data-series="failed">refused a second</li>
        <li data-series="timeout">timed out a second</li>
        <li data-series="held">lock held (% of the interval, right axis)</li>
        <li data-series="fault">a fault in effect</li>
      </ul>
      <UPlotChart build={build} height={200} label={summary} />
      <ChartTable
        caption={`Acquires in each interval of ${interval} from the run’s start, and how much of it some client held the lock.`}
        head={['From', 'Granted', 'Refused', 'Timed out', 'Lock held']}
        rows={m.series.map((b) => [formatRunTime(b.fromMs), b.granted, b.failed, b.timedOut, formatPercent(b.heldShare)])}
      />
      {m.faults.length > 0 && (
        <ul className={styles.faults} aria-label="Faults during the run">
          {m.faults.map((f, i) => (
            <li key={i}>
              {f.label}: {f.instant ? `at ${formatRunTime(f.from)}` : `from ${formatRunTime(f.from)} to ${f.open ? 'the end of the run' : formatRunTime(f.to)}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function JobsTable({ m }: { m: RunMeasurements }) {
  if (m.jobs.length === 0) return null;
  return (
    <table className={styles.table}>
      <caption>Executions of each job{m.duplicates === null ? ' (this lesson expects no particular count)' : ''}</caption>
      <thead>
        <tr>
          <th scope="col">Job</th>
          <th scope="col">Ran</th>
          <th scope="col">Expected</th>
          <th scope="col">Duplicates</th>
          <th scope="col">Cut short or open</th>
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
