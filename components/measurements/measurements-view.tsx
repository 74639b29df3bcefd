'use client';
/**
 * The Measurements view: what the shown run cost (acquire latency, acquires over time, how long the lock was held,
 * duplicate executions, the faults in effect), and, with a run pinned, that run beside it and the difference in
 * words. Loaded only when its tab is first opened (it brings uPlot and the HdrHistogram).
 */
import { useMemo } from 'react';
import { useLabStore } from '@/components/lab/lab-provider';
import { useTranslations } from 'next-intl';
import { compareWords, countedWords } from '@/lib/measurements/words';
import { RunFigures } from './run-figures';
import { JobsTable, TimePanel } from './time-panel';
import { useMeasureSay } from './use-measure-say';
import { useRunMeasurements } from './use-run-measurements';
import styles from './measurements.module.css';

export function MeasurementsView() {
  const t = useTranslations('measurements');
  const say = useMeasureSay();
  const shown = useRunMeasurements();
  const pinned = useLabStore((s) => s.measure.pinned);
  const pinRun = useLabStore((s) => s.actions.pinRun);
  const m = shown.measurements;
  const comparing = pinned !== null && shown.hasRun && pinned.runId !== shown.runId;
  const range = useMemo(() => {
    if (!comparing || !pinned) return undefined;
    let lo = Infinity;
    let hi = -Infinity;
    for (const list of [m.latencies, pinned.measurements.latencies]) {
      for (const v of list) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
    return lo <= hi ? { lo, hi } : undefined;
  }, [comparing, pinned, m.latencies]);

  if (!shown.hasRun && !pinned) {
    return <p className={styles.muted}>{t('empty')}</p>;
  }

  return (
    <div className={styles.view}>
      {shown.hasRun && <p className={styles.counted}>{countedWords(m, say)}</p>}
      <div className={styles.pinBar}>
        <button type="button" disabled={!shown.hasRun || shown.live} onClick={() => pinRun({ label: shown.label, runId: shown.runId, measurements: m })}>
          {t('pin')}
        </button>
        {pinned && (
          <button type="button" onClick={() => pinRun(null)}>
            {t('unpin')}
          </button>
        )}
        <p className={styles.pinNote} aria-live="polite">
          {pinned
            ? comparing
              ? t('comparingWith', { label: pinned.label })
              : t('pinned', { label: pinned.label })
            : shown.live
              ? t('pinWhenEnded')
              : t('pinHint')}
        </p>
      </div>
      {comparing && pinned && (
        <p className={styles.compare} data-testid="measurements-compare">
          {compareWords(m, pinned.measurements, say)}
        </p>
      )}
      <div className={styles.columns} data-comparing={comparing ? true : undefined}>
        {shown.hasRun && <RunFigures title={shown.live ? t('thisRunLive') : t('thisRun')} about={shown.label} m={m} {...(range ? { range } : {})} />}
        {pinned && (comparing || !shown.hasRun) && <RunFigures title={t('pinnedRun')} about={pinned.label} m={pinned.measurements} {...(range ? { range } : {})} />}
      </div>
      {shown.hasRun && <TimePanel m={m} cursorMs={shown.cursorMs} />}
      {shown.hasRun && <JobsTable m={m} />}
    </div>
  );
}
