'use client';
/** The last few things that happened to the cluster, in words, newest first. */
import { useMemo } from 'react';
import { formatDuration } from '@/lib/durations';
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

const TONE_WORDS: Record<HistoryTone, string> = {
  fault: 'fault',
  recovery: 'recovery',
  refused: 'refused',
  info: 'note',
};

export function RecentHistory({ limit = 12 }: { limit?: number }) {
  const history = useLabStore((s) => s.history);
  const gap = useLabStore((s) => s.historyGap);
  const hasRun = useLabStore((s) => s.run.info !== null || s.view.replay !== null);
  // One clock with the timeline and the verdict: the run's, or (before any run) this page's.
  const origin = useShownOrigin();
  const lines = useMemo(() => recentLines(history, limit), [history, limit]);

  return (
    <section aria-labelledby="recent-history-title" className={styles.history}>
      <h2 id="recent-history-title" className={styles.sectionTitle}>
        Recent events
      </h2>
      <p className={styles.muted}>
        Newest first; times count from {hasRun ? 'the start of the run, as on the timeline' : 'when you opened this page'}.
      </p>
      {lines.length === 0 ? (
        <p className={styles.muted}>Nothing has happened to the nodes yet. Kill, pause or restart one and it is listed here.</p>
      ) : (
        <ol className={styles.historyList}>
          {lines.map((line) => (
            <li key={line.seq} className={styles.historyLine} data-tone={line.tone}>
              <span className={styles.mark} aria-hidden="true">
                {TONE_MARK[line.tone]}
              </span>
              <span className="visually-hidden">{TONE_WORDS[line.tone]}: </span>
              <span className={styles.historyText}>{line.text}</span>
              <time className={styles.historyTime}>
                {line.t < origin ? `${formatDuration(origin - line.t)} before the run` : `at ${formatDuration(line.t - origin)}`}
              </time>
            </li>
          ))}
        </ol>
      )}
      {gap && <p className={styles.muted}>Some earlier events were missed while disconnected.</p>}
    </section>
  );
}
