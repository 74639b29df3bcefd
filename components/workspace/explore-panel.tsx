'use client';
/**
 * "Explore": asks the server to search random fault schedules for one that
 * breaks the editor's code, for a bounded time, shows how far the search and
 * the shrinking got, then the minimal schedule with "Show on timeline" — or
 * what it tried, which is evidence, not a proof.
 */
import { useLocale, useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { CheckerText, useCheckerText } from '@/components/verdict/checker-text';
import type { ExploreProgress, ExploreResult } from '@/lib/explore';
import { isLocale } from '@/i18n/routing';
import styles from './workspace.module.css';

export interface ExplorePanelProps {
  /** The lesson whose allowed faults to draw from; absent in the playground. */
  slug?: string;
  code: () => string;
}

const BUDGETS = [10, 20, 40] as const;

type ExploreTranslator = ReturnType<typeof useTranslations<'exercise.explore'>>;

function progressWords(t: ExploreTranslator, progress: ExploreProgress | null): string {
  if (!progress) return t('progress.starting');
  const time = t('progress.time', { elapsed: Math.round(progress.elapsedMs / 1000), budget: Math.round(progress.budgetMs / 1000) });
  if (progress.phase === 'searching') return t('progress.searching', { schedules: progress.schedules, time });
  if (progress.phase === 'aimed') return t('progress.aimed', { seconds: Math.round(progress.elapsedMs / 1000) });
  if (progress.phase === 'shrinking') {
    return progress.faults === undefined || progress.faults === null
      ? t('progress.shrinkingUnknown', { tries: progress.shrinkRuns, time })
      : t('progress.shrinking', { faults: progress.faults, tries: progress.shrinkRuns, time });
  }
  return t('progress.playing');
}

const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;

function FoundResult({ result }: { result: Extract<ExploreResult, { found: true }> }) {
  const t = useTranslations('exercise.explore');
  const actions = useLabStore((s) => s.actions);
  return (
    <div className={styles.exerciseFailure} data-testid="explore-result" data-found="true" data-on-timeline={result.onTimeline}>
      <p>
        <span aria-hidden="true">✗ </span>
        {result.targetedTitle !== undefined
          ? t.rich('brokenTargeted', { title: result.targetedTitle, seconds: result.seconds, strong, bdi: (chunks) => <bdi data-server-words>{chunks}</bdi> })
          : result.faultsBefore > result.faultsAfter
          ? t.rich('brokenShrunk', { faults: result.faultsAfter, before: result.faultsBefore, tries: result.shrinkRuns, schedules: result.schedules, seconds: result.seconds, strong })
          : t.rich('broken', { faults: result.faultsAfter, schedules: result.schedules, seconds: result.seconds, strong })}
      </p>
      {result.lines.length > 0 ? (
        <ol data-testid="explore-schedule">
          {result.lines.map((line, i) => (
            // The schedule's lines in the page's language (English from an older server), each in its own direction.
            <li key={i} dir="auto">
              <CheckerText said={{ message: line, words: result.linesWords?.[i] }} />
            </li>
          ))}
        </ol>
      ) : (
        <p data-testid="explore-schedule">{t('noFault')}</p>
      )}
      <p data-testid="explore-counter-example" dir="auto">
        <CheckerText said={result} />
      </p>
      {!result.onTimeline && (
        <p className={styles.muted} data-testid="explore-timing">
          {t('timing', { seed: result.seed })}
        </p>
      )}
      {result.onTimeline && result.counterExample && (
        <button type="button" className={styles.linkButton} onClick={() => result.counterExample && actions.focusWindow(result.counterExample.window)}>
          {t('showOnTimeline')}
        </button>
      )}
    </div>
  );
}

export function ExplorePanel({ slug, code }: ExplorePanelProps) {
  const t = useTranslations('exercise.explore');
  const serverText = useCheckerText();
  const lab = useLabClient();
  const state = useLabStore((s) => s.explore);
  const connected = useLabStore((s) => s.connection === 'ready');
  const actions = useLabStore((s) => s.actions);
  const [seconds, setSeconds] = useState<(typeof BUDGETS)[number]>(20);
  const locale = useLocale();
  const exploring = state.phase === 'exploring';
  const result = state.phase === 'done' ? state.result : null;
  const checkedList = result ? result.checked.map((message, i) => serverText({ message, words: result.checkedWords?.[i] })).join(t('separator')) : '';

  const explore = async () => {
    if (exploring || !connected) return;
    actions.openReplay(null, null);
    actions.setCursor(null);
    await lab.explore({ ...(slug ? { slug } : {}), code: code(), seconds, locale: isLocale(locale) ? locale : 'en' });
  };

  return (
    <section className={styles.exercise} aria-labelledby="explore-panel-title" data-testid="explore">
      <div className={styles.exerciseHead}>
        <h2 id="explore-panel-title" className={styles.panelTitle}>
          {t('title')}
        </h2>
        <label className={styles.muted}>
          {t('for')}{' '}
          <select value={seconds} onChange={(e) => setSeconds(Number(e.target.value) as (typeof BUDGETS)[number])} disabled={exploring} aria-label={t('howLong')}>
            {BUDGETS.map((b) => (
              <option key={b} value={b}>
                {t('seconds', { s: b })}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className={styles.checkButton} onClick={() => void explore()} aria-disabled={exploring || !connected ? true : undefined}>
          {t('button')}
        </button>
      </div>
      <p className={styles.muted}>
        {slug ? t('aboutLesson') : t('about')}
      </p>
      <div aria-live="polite" className={styles.exerciseStatus}>
        {exploring && (
          <p className={styles.exerciseProgress} data-testid="explore-progress">
            <span className={styles.spinner} aria-hidden="true" />
            {progressWords(t, state.progress)}
            {state.progress && <progress max={state.progress.budgetMs} value={Math.min(state.progress.elapsedMs, state.progress.budgetMs)} aria-hidden="true" />}
          </p>
        )}
        {state.phase === 'error' && (
          <p className={styles.exerciseFailed} role="alert">
            {/* A refusal the server worded is in the page's language; other errors are the server's English. */}
            {t.rich('couldNotFinish', {
              error: serverText({ message: state.error ?? '', words: state.errorWords }),
              bdi: (chunks) => (state.errorWords ? <bdi>{chunks}</bdi> : <bdi data-server-words>{chunks}</bdi>),
            })}
          </p>
        )}
        {result?.found && <FoundResult result={result} />}
        {result && !result.found && (
          // Neutral, never the green of a pass: finding nothing is what was tried, not that the code is right.
          <div className={styles.exploreNothing} data-testid="explore-result" data-found="false">
            <p>
              {result.maxFaults === undefined
                ? t('none', { schedules: result.schedules, seconds: result.seconds, checked: checkedList })
                : t('nothing', { targeted: result.targeted ?? 0, schedules: result.schedules, maxFaults: result.maxFaults, seconds: result.seconds, checked: checkedList })}
            </p>
            {result.maxFaults === undefined && <p className={styles.muted}>{t('notProof')}</p>}
          </div>
        )}
      </div>
    </section>
  );
}
