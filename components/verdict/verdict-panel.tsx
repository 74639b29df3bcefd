'use client';
/** The verdict panel: the live run's verdict, or a recorded run's re-checked one. */
import { useTranslations } from 'next-intl';
import { useLabStore } from '@/components/lab/lab-provider';
import { useShownOrigin, useShownVerdict } from '@/components/workspace/use-shown-run';
import { BusyRunNote } from './busy-run-note';
import { VerdictView } from './verdict-view';
import styles from './verdict.module.css';
import { useCheckerText } from './checker-text';

export interface VerdictPanelProps {
  /** What to say before any verdict, where this page runs things (the default: it has an editor). */
  empty?: string;
}

export function VerdictPanel({ empty }: VerdictPanelProps = {}) {
  const t = useTranslations('verdict');
  const verdict = useShownVerdict();
  const timeOrigin = useShownOrigin();
  const replay = useLabStore((s) => s.view.replay);
  const phase = useLabStore((s) => s.run.phase);
  const outcome = useLabStore((s) => (replay ? (replay.ended?.outcome ?? null) : (s.run.ended?.outcome ?? null)));
  const startError = useLabStore((s) => s.run.startError);
  const startErrorWords = useLabStore((s) => s.run.startErrorWords);
  const text = useCheckerText();
  const focusWindow = useLabStore((s) => s.actions.focusWindow);
  const running = !replay && (phase === 'running' || phase === 'starting');
  // Whose program the verdict is about, and in which scenario: a verdict never stands apart from what ran.
  const program = useLabStore((s) => s.run.program);
  const scenarioTitle = useLabStore((s) => s.run.scenario?.title ?? null);
  // A busy machine can hide a timing-dependent break or cause a timeout: say so rather than let the verdict stand alone.
  const cpuWaitMs = useLabStore((s) => (replay ? (replay.ended?.cpuWaitMs ?? 0) : (s.run.ended?.cpuWaitMs ?? 0)));
  const about = !replay && phase !== 'idle' && program ? (scenarioTitle ? t('ranIn', { program, scenario: scenarioTitle }) : t('ranNoScenario', { program })) : null;

  return (
    <section className={styles.panel} aria-labelledby="verdict-title" aria-live="polite" aria-atomic="false">
      <h2 id="verdict-title" className={styles.title}>
        {replay ? t('titleSaved') : t('title')}
      </h2>
      {about && (
        <p className={styles.about} data-testid="verdict-about">
          {about}
        </p>
      )}
      <BusyRunNote cpuWaitMs={cpuWaitMs} />
      {startError && !replay ? (
        <p role="alert" className={styles.error}>
          {t('startError', { error: text({ message: startError, words: startErrorWords }) })}
        </p>
      ) : (
        <VerdictView {...(empty ? { empty } : {})} verdict={verdict} running={running} outcome={outcome} recordedVerdict={replay?.verdict ?? null} onShow={focusWindow} timeOrigin={timeOrigin} />
      )}
    </section>
  );
}
