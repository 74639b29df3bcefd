'use client';
/**
 * "Check my solution": sends the editor's code to the grader through the
 * lab client, shows which graded run is going ("Checking 2 of 6: Fix it —
 * seed 17"), then passed, or the counter-example with "Show on timeline"
 * and a hint. The graded runs play in this tab's lab, so the timeline and
 * verdict show each of them while the check goes, named as the check's; once
 * it answers the page shows the learner's own last run again, and "Show on
 * timeline" brings back the failing run (components/lab/check-runs.ts).
 */
import { useLocale, useTranslations } from 'next-intl';
import { isLocale } from '@/i18n/routing';
import type { ReactNode } from 'react';
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { useProgressActions } from '@/components/progress/progress-provider';
import { CheckerText } from '@/components/verdict/checker-text';
import type { GradedRun } from '@/lib/grading';
import type { Scenario } from '@/lib/scenario';
import { checkingWords, type ExerciseTranslator } from './exercise-words';
import type { WorkspaceExercise } from './types';
import styles from './workspace.module.css';
import { useCheckerText } from '@/components/verdict/checker-text';

export interface ExercisePanelProps {
  slug: string;
  exercise: WorkspaceExercise;
  scenarios: readonly Scenario[];
  /** The editor's code now (read when the button is pressed). */
  code: () => string;
}

/** Which graded run failed, in words: a hidden check is named only now that it failed. */
function failedWords(t: ExerciseTranslator, run: GradedRun | undefined, count: number, total: number, scenarios: readonly Scenario[]): ReactNode {
  if (!run) return t('failed.unknown');
  // A lesson scenario is named as the page names it (in its language); a hidden check or probe by the grader's title.
  const title = (!run.hidden && scenarios.find((s) => s.id === run.scenarioId)?.title) || run.scenarioTitle;
  // A check's title comes from the grader, in the page's language when the lesson's translation has it (English where
  // it falls back): isolated, so it keeps its own direction in an Arabic sentence (data-server-words: what the server says).
  // Numbered as the toolbar numbers the check's run it shows; older answers carry no place.
  const values = { title, n: run.place ?? count, total, bdi: isolate };
  if (run.hidden) return t.rich('failed.hidden', values);
  if (run.probe) return t.rich('failed.probe', values);
  return t.rich('failed.seeded', { ...values, seed: run.seed });
}

const isolate = (chunks: ReactNode) => <bdi data-server-words>{chunks}</bdi>;
const isolateTranslated = (chunks: ReactNode) => <bdi>{chunks}</bdi>;

const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;
const codeTag = (chunks: ReactNode) => <code>{chunks}</code>;

export function ExercisePanel({ slug, exercise, scenarios, code }: ExercisePanelProps) {
  const t = useTranslations('exercise');
  const serverText = useCheckerText();
  const locale = useLocale();
  const lab = useLabClient();
  const progress = useProgressActions();
  const state = useLabStore((s) => (s.exercise.slug === slug ? s.exercise : null));
  const connected = useLabStore((s) => s.connection === 'ready');
  const actions = useLabStore((s) => s.actions);
  const checking = state?.phase === 'checking';
  const result = state?.phase === 'done' ? state.result : null;
  const failure = result?.failure ?? null;
  const failedRun = failure ? result?.runs.find((r) => r.runId === failure.runId) : undefined;

  const check = async () => {
    if (checking || !connected) return;
    // Show the graded runs live: leave a replay or a scrubbed cursor.
    actions.openReplay(null, null);
    actions.setCursor(null);
    // A check is a try too: it counts as a run (and so offers "Show solution").
    progress.markRan(slug);
    // The page's language: the grader answers in it (a failed hidden check's title, a probe's sentence, the hint).
    const answer = await lab.checkExercise(slug, code(), isLocale(locale) ? locale : 'en');
    if (answer.ok && answer.value.passed) progress.markPassed(slug);
  };

  return (
    <section className={styles.exercise} aria-labelledby="exercise-panel-title" data-testid="exercise">
      <div className={styles.exerciseHead}>
        <h2 id="exercise-panel-title" className={styles.panelTitle}>
          {t.rich('title', { fn: exercise.function, code: codeTag })}
        </h2>
        <button type="button" className={styles.checkButton} onClick={() => void check()} aria-disabled={checking || !connected ? true : undefined}>
          {t('check')}
        </button>
      </div>
      <p className={styles.muted}>{exercise.description}</p>

      <div aria-live="polite" className={styles.exerciseStatus}>
        {checking && (
          <p className={styles.exerciseProgress} data-testid="exercise-progress">
            <span className={styles.spinner} aria-hidden="true" />
            {checkingWords(t, state.progress, scenarios, exercise.runs)}
            {state.progress && <progress max={state.progress.total} value={state.progress.done} aria-hidden="true" />}
          </p>
        )}
        {state?.phase === 'error' && (
          <p className={styles.exerciseFailed} role="alert">
            {/* A refusal the server worded is in the page's language; other errors are the server's English. */}
            {t.rich('couldNotFinish', { error: serverText({ message: state.error ?? '', words: state.errorWords }), bdi: state.errorWords ? isolateTranslated : isolate })}
          </p>
        )}
        {result?.passed && (
          <p className={styles.exercisePassed} data-testid="exercise-result" data-passed="true">
            <span aria-hidden="true">✓ </span>
            {t.rich('passed', { total: result.total, strong })}
          </p>
        )}
        {result?.busy && (
          <p className={styles.exerciseBusy} role="status" data-testid="exercise-result" data-passed="busy">
            <span aria-hidden="true">… </span>
            <strong>{t('notDecided')}</strong> <bdi><CheckerText said={{ message: result.busy, words: result.busyWords }} /></bdi>
          </p>
        )}
        {result && !result.passed && !result.busy && (
          <div className={styles.exerciseFailure} data-testid="exercise-result" data-passed="false">
            <p>
              <span aria-hidden="true">✗ </span>
              <strong>{t('notYet')}</strong> {failedWords(t, failedRun, result.runs.length, result.total, scenarios)}
            </p>
            {/* The grader's sentence in the page's language, in the page's direction (an English sentence quoted inside it is
                isolated by the words themselves); a sentence without words (an older server, a probe's own) takes its own. */}
            {failure && (
              <p data-testid="exercise-counter-example" dir={failure.words ? undefined : 'auto'}>
                <CheckerText said={failure} />
              </p>
            )}
            {failure && (failure.counterExample || failure.window) && (
              <button
                type="button"
                className={styles.linkButton}
                onClick={() => {
                  const window = failure.counterExample?.window ?? failure.window;
                  // The failure happened in one of the check's runs: show that run (named as the check's), then its moment.
                  actions.showCheckRun(failure.runId);
                  if (window) actions.focusWindow(window);
                }}
              >
                {t('showOnTimeline')}
              </button>
            )}
            {failure?.hint && (
              <div className={styles.exerciseHint} data-testid="exercise-hint">
                <h3>{t('hint')}</h3>
                <p dir="auto" data-server-words>{failure.hint.replace(/^#+\s*/gm, '')}</p>
              </div>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
