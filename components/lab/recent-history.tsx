'use client';
/** The last few things that happened to the cluster, in words, newest first. */
import { useLocale, useTranslations } from 'next-intl';
import { useCheckerText } from '@/components/verdict/checker-text';
import { useMemo } from 'react';
import { useFormatDuration } from './use-duration';
import { useShownOrigin } from '@/components/workspace/use-shown-run';
import { recentLines, type HistoryTone } from './history-words';
import { useLabStore } from './lab-provider';
import styles from './lab.module.css';

const TONE_MARK: Record<HistoryTone, string> = {
  fault: '✕',
  recovery: '✓',
  refused: '!',
  info: '…',
};

export function RecentHistory({ limit = 12 }: { limit?: number }) {
  const history = useLabStore((s) => s.history);
  const gap = useLabStore((s) => s.historyGap);
  const hasRun = useLabStore((s) => s.run.info !== null || s.view.replay !== null);
  // One clock with the timeline and the verdict: the run's, or (before any run) this page's.
  const origin = useShownOrigin();
  const t = useTranslations('lab');
  const formatDuration = useFormatDuration();
  const said = useCheckerText();
  const locale = useLocale();
  // `said` is a new function each render; the page's language is what it depends on.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const lines = useMemo(() => recentLines(history, limit, t, formatDuration, said), [history, limit, t, formatDuration, locale]);

  return (
    <section aria-labelledby="recent-history-title" className={styles.history}>
      <h2 id="recent-history-title" className={styles.sectionTitle}>
        {t('recent.title')}
      </h2>
      <p className={styles.muted}>{hasRun ? t('recent.fromRun') : t('recent.fromPage')}</p>
      {lines.length === 0 ? (
        <p className={styles.muted}>{t('recent.empty')}</p>
      ) : (
        <ol className={styles.historyList}>
          {lines.map((line) => (
            <li key={line.seq} className={styles.historyLine} data-tone={line.tone}>
              <span className={styles.mark} aria-hidden="true">
                {TONE_MARK[line.tone]}
              </span>
              <span className="visually-hidden">{`${t(`recent.tone.${line.tone}`)}: `}</span>
              <span className={styles.historyText}>{line.text}</span>
              <time className={styles.historyTime}>
                {line.t < origin ? t('recent.before', { duration: formatDuration(origin - line.t) }) : t('recent.at', { duration: formatDuration(line.t - origin) })}
              </time>
            </li>
          ))}
        </ol>
      )}
      {gap && <p className={styles.muted}>{t('recent.gap')}</p>}
    </section>
  );
}
