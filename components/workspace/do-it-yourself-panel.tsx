'use client';
/**
 * "Do it yourself" (issue 30): the lesson's break, made by the learner's own
 * faults. The steps say what to do in the page's language (the moment and the
 * faults in the words the breakpoint picker and the buttons use); "Set up and
 * run" plays the break scenario without those faults, stopping at the
 * breakpoint; when that run ends, lib/do-it-yourself/attribute.ts reads its
 * history and verdict and says whether the learner's faults made the break,
 * and which one. Only then is the task marked done in the learner's progress.
 */
import { useLocale, useMessages, useTranslations } from 'next-intl';
import { useEffect, useMemo, useState } from 'react';
import { useLabStore } from '@/components/lab/lab-provider';
import { useProgress, useProgressActions } from '@/components/progress/progress-provider';
import { attributeBreak, type Attribution } from '@/lib/do-it-yourself/attribute';
import { goalKey } from '@/lib/do-it-yourself/task';
import { faultCommandWords } from '@/lib/faults/command-words';
import type { CommandResult } from '@/components/lab/socket-client';
import type { RunInfo } from '@/lib/run';
import { triggerWords } from '@/lib/scenario-words';
import { render, words } from '@/lib/words';
import type { WorkspaceDoItYourself } from './types';
import styles from './workspace.module.css';

export interface DoItYourselfPanelProps {
  slug: string;
  task: WorkspaceDoItYourself;
  /** The break scenario's title, in the page's language. */
  scenarioTitle: string;
  /** Sets the run up (program, scenario without the hand faults, breakpoint) and starts it. */
  onSetUp: () => Promise<CommandResult<RunInfo> | null>;
}

export function DoItYourselfPanel({ slug, task, scenarioTitle, onSetUp }: DoItYourselfPanelProps) {
  const t = useTranslations('workspace.doItYourself');
  const locale = useLocale();
  const catalogue = useMessages();
  const progress = useProgressActions();
  const completed = useProgress((s) => s.lessons[slug]?.didItYourself === true);
  const [runId, setRunId] = useState<string | null>(null);
  const ended = useLabStore((s) => (runId !== null && s.run.ended?.runId === runId ? s.run.ended : null));
  const startedAt = useLabStore((s) => (runId !== null && s.run.info?.runId === runId ? s.run.info.startedAt : null));
  const history = useLabStore((s) => s.history);

  // Read once the run has ended: the final verdict and the whole run's history.
  const attribution: Attribution | null = useMemo(
    () => (ended && startedAt !== null ? attributeBreak({ history, verdict: ended.verdict, runId: ended.runId, startedAt, diagnosis: task.diagnosis }) : null),
    [ended, startedAt, history, task.diagnosis],
  );
  useEffect(() => {
    if (attribution?.outcome === 'done') progress.markDidItYourself(slug);
  }, [attribution, progress, slug]);

  const list = new Intl.ListFormat(locale, { type: 'conjunction' });
  const faults = list.format(task.byHand.map((f) => `“${render(faultCommandWords(f.action, f), locale, catalogue)}”`));
  const moment = render(triggerWords(task.breakpoint), locale, catalogue);

  const setUp = async () => {
    setRunId(null);
    const started = await onSetUp();
    if (started?.ok) setRunId(started.value.runId);
  };

  return (
    <section className={styles.exercise} aria-labelledby="diy-title" data-testid="do-it-yourself" data-completed={completed || undefined}>
      <div className={styles.exerciseHead}>
        <h2 id="diy-title" className={styles.panelTitle}>
          {t('title')}
          {completed && (
            <span className={styles.diyDone} data-testid="diy-completed">
              <span aria-hidden="true"> ✓ </span>
              {t('completed')}
            </span>
          )}
        </h2>
        <button type="button" className={styles.checkButton} onClick={() => void setUp()} title={t('setUpTitle')}>
          {t('setUp')}
        </button>
      </div>
      <p className={styles.muted}>
        {t('intro', { scenario: scenarioTitle })} {render(words(goalKey(task.diagnosis)), locale, catalogue)}
      </p>
      <ol className={styles.diySteps}>
        <li>{t('stepSetup', { moment })}</li>
        <li>{t('stepFaults', { faults })}</li>
        <li>{t('stepResume')}</li>
      </ol>
      <div aria-live="polite">
        {runId !== null && !attribution && <p className={styles.muted}>{t('waiting')}</p>}
        {attribution && (
          <p role="status" data-testid="diy-outcome" data-outcome={attribution.outcome} className={attribution.outcome === 'done' ? styles.diyPassed : styles.diyNotYet}>
            {render(attribution.words, locale, catalogue)}
          </p>
        )}
      </div>
    </section>
  );
}
