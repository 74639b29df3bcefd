'use client';
/**
 * "Check my solution": sends the editor's code to the grader through the
 * lab client, shows which graded run is going ("Checking 2 of 6: Fix it —
 * seed 17"), then passed, or the counter-example with "Show on timeline"
 * and a hint. The graded runs play in this tab's lab, so the timeline and
 * verdict show each of them, and the failing one last.
 */
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { useProgressActions } from '@/components/progress/progress-provider';
import { CheckerText } from '@/components/verdict/checker-text';
import type { GradedRun } from '@/lib/grading';
import type { Scenario } from '@/lib/scenario';
import { checkingWords } from './exercise-words';
import type { WorkspaceExercise } from './types';
import styles from './workspace.module.css';

export interface ExercisePanelProps {
  slug: string;
  exercise: WorkspaceExercise;
  scenarios: readonly Scenario[];
  /** The editor's code now (read when the button is pressed). */
  code: () => string;
}

/** Which graded run failed, in words: a hidden check is named only now that it failed. */
function failedWords(run: GradedRun | undefined, count: number, total: number): string {
  if (!run) return 'A graded run failed.';
  if (run.hidden) return `A hidden check failed: “${run.scenarioTitle}” (check ${count} of ${total}).`;
  if (run.probe) return `It failed the check “${run.scenarioTitle}” (check ${count} of ${total}).`;
  return `It failed under “${run.scenarioTitle}” with random seed ${run.seed} (run ${count} of ${total}).`;
}

export function ExercisePanel({ slug, exercise, scenarios, code }: ExercisePanelProps) {
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
    const answer = await lab.checkExercise(slug, code());
    if (answer.ok && answer.value.passed) progress.markPassed(slug);
  };

  return (
    <section className={styles.exercise} aria-labelledby="exercise-panel-title" data-testid="exercise">
      <div className={styles.exerciseHead}>
        <h2 id="exercise-panel-title" className={styles.panelTitle}>
          Exercise: <code>{exercise.function}()</code>
        </h2>
        <button type="button" className={styles.checkButton} onClick={() => void check()} aria-disabled={checking || !connected ? true : undefined}>
          Check my solution
        </button>
      </div>
      <p className={styles.muted}>{exercise.description}</p>

      <div aria-live="polite" className={styles.exerciseStatus}>
        {checking && (
          <p className={styles.exerciseProgress} data-testid="exercise-progress">
            <span className={styles.spinner} aria-hidden="true" />
            {checkingWords(state.progress, scenarios, exercise.runs)}
            {state.progress && <progress max={state.progress.total} value={state.progress.done} aria-hidden="true" />}
          </p>
        )}
        {state?.phase === 'error' && (
          <p className={styles.exerciseFailed} role="alert">
            The check could not finish: {state.error}
          </p>
        )}
        {result?.passed && (
          <p className={styles.exercisePassed} data-testid="exercise-result" data-passed="true">
            <span aria-hidden="true">✓ </span>
            <strong>Passed.</strong> Your code held in all {result.total} graded runs — the scenarios and the checks aimed at this lesson's bugs, hidden ones included — and the work got done. Well done.
          </p>
        )}
        {result?.busy && (
          <p className={styles.exerciseBusy} role="status" data-testid="exercise-result" data-passed="busy">
            <span aria-hidden="true">… </span>
            <strong>Not decided.</strong> {result.busy}
          </p>
        )}
        {result && !result.passed && !result.busy && (
          <div className={styles.exerciseFailure} data-testid="exercise-result" data-passed="false">
            <p>
              <span aria-hidden="true">✗ </span>
              <strong>Not yet.</strong>{' '}
              {failedWords(failedRun, result.runs.length, result.total)}
            </p>
            {failure && (
              <p data-testid="exercise-counter-example">
                <CheckerText said={failure} />
              </p>
            )}
            {failure && (failure.counterExample || failure.window) && (
              <button
                type="button"
                className={styles.linkButton}
                onClick={() => {
                  const window = failure.counterExample?.window ?? failure.window;
                  if (window) actions.focusWindow(window);
                }}
              >
                Show on timeline
              </button>
            )}
            {failure?.hint && (
              <div className={styles.exerciseHint} data-testid="exercise-hint">
                <h3>Hint</h3>
                <p>{failure.hint.replace(/^#+\s*/gm, '')}</p>
              </div>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
