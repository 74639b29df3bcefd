'use client';
/**
 * "Explore": asks the server to search random fault schedules for one that
 * breaks the editor's code, for a bounded time, shows how far the search and
 * the shrinking got, then the minimal schedule with "Show on timeline" — or
 * what it tried, which is evidence, not a proof.
 */
import { useState } from 'react';
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { CheckerText } from '@/components/verdict/checker-text';
import type { ExploreProgress, ExploreResult } from '@/lib/explore';
import styles from './workspace.module.css';

export interface ExplorePanelProps {
  /** The lesson whose allowed faults to draw from; absent in the playground. */
  slug?: string;
  code: () => string;
}

const BUDGETS = [10, 20, 40] as const;

function progressWords(progress: ExploreProgress | null): string {
  if (!progress) return 'Starting the search…';
  const time = `${Math.round(progress.elapsedMs / 1000)} s of ${Math.round(progress.budgetMs / 1000)} s`;
  if (progress.phase === 'searching') return `Searching: ${progress.schedules} schedule${progress.schedules === 1 ? '' : 's'} tried (${time})`;
  if (progress.phase === 'shrinking') return `Found one; shrinking it: ${progress.faults ?? '?'} fault${progress.faults === 1 ? '' : 's'} left after ${progress.shrinkRuns} tries (${time})`;
  return 'Playing the smallest failing schedule in your lab…';
}

function FoundResult({ result }: { result: Extract<ExploreResult, { found: true }> }) {
  const actions = useLabStore((s) => s.actions);
  return (
    <div className={styles.exerciseFailure} data-testid="explore-result" data-found="true" data-on-timeline={result.onTimeline}>
      <p>
        <span aria-hidden="true">✗ </span>
        <strong>Broken</strong> by a schedule of {result.faultsAfter} fault{result.faultsAfter === 1 ? '' : 's'}
        {result.faultsBefore > result.faultsAfter ? ` (shrunk from ${result.faultsBefore} in ${result.shrinkRuns} tries)` : ''}, found after {result.schedules} schedule
        {result.schedules === 1 ? '' : 's'} in {result.seconds} s:
      </p>
      {result.lines.length > 0 ? (
        <ol data-testid="explore-schedule">
          {result.lines.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ol>
      ) : (
        <p data-testid="explore-schedule">No fault at all: the clients&apos; own timing was enough.</p>
      )}
      <p data-testid="explore-counter-example">
        <CheckerText said={result} />
      </p>
      {!result.onTimeline && (
        <p className={styles.muted} data-testid="explore-timing">
          Played again here, this schedule held: the interleaving that broke safety depends on timing. Explore with the same random seed ({result.seed}) searches the same schedules again.
        </p>
      )}
      {result.onTimeline && result.counterExample && (
        <button type="button" className={styles.linkButton} onClick={() => result.counterExample && actions.focusWindow(result.counterExample.window)}>
          Show on timeline
        </button>
      )}
    </div>
  );
}

export function ExplorePanel({ slug, code }: ExplorePanelProps) {
  const lab = useLabClient();
  const state = useLabStore((s) => s.explore);
  const connected = useLabStore((s) => s.connection === 'ready');
  const actions = useLabStore((s) => s.actions);
  const [seconds, setSeconds] = useState<(typeof BUDGETS)[number]>(20);
  const exploring = state.phase === 'exploring';
  const result = state.phase === 'done' ? state.result : null;

  const explore = async () => {
    if (exploring || !connected) return;
    actions.openReplay(null, null);
    actions.setCursor(null);
    await lab.explore({ ...(slug ? { slug } : {}), code: code(), seconds });
  };

  return (
    <section className={styles.exercise} aria-labelledby="explore-panel-title" data-testid="explore">
      <div className={styles.exerciseHead}>
        <h2 id="explore-panel-title" className={styles.panelTitle}>
          Explore: random fault schedules
        </h2>
        <label className={styles.muted}>
          for{' '}
          <select value={seconds} onChange={(e) => setSeconds(Number(e.target.value) as (typeof BUDGETS)[number])} disabled={exploring} aria-label="How long to explore">
            {BUDGETS.map((b) => (
              <option key={b} value={b}>
                {b} s
              </option>
            ))}
          </select>
        </label>
        <button type="button" className={styles.checkButton} onClick={() => void explore()} aria-disabled={exploring || !connected ? true : undefined}>
          Explore
        </button>
      </div>
      <p className={styles.muted}>
        Runs your program under schedules of faults drawn at random{slug ? " from the ones this lesson's lock should survive" : ''}, aimed at clock times and at moments of the run, and stops at the first that breaks safety; then removes faults and shortens them while it still breaks, and plays the smallest one here.
      </p>
      <div aria-live="polite" className={styles.exerciseStatus}>
        {exploring && (
          <p className={styles.exerciseProgress} data-testid="explore-progress">
            <span className={styles.spinner} aria-hidden="true" />
            {progressWords(state.progress)}
            {state.progress && <progress max={state.progress.budgetMs} value={Math.min(state.progress.elapsedMs, state.progress.budgetMs)} aria-hidden="true" />}
          </p>
        )}
        {state.phase === 'error' && (
          <p className={styles.exerciseFailed} role="alert">
            The search could not finish: {state.error}
          </p>
        )}
        {result?.found && <FoundResult result={result} />}
        {result && !result.found && (
          <div className={styles.exercisePassed} data-testid="explore-result" data-found="false">
            <p>
              No violation found in {result.schedules} schedule{result.schedules === 1 ? '' : 's'} ({result.seconds} s). They drew from: {result.checked.join('; ')}.
            </p>
            <p className={styles.muted}>That is what was tried, not a proof: a longer search, or another kind of fault, may still find a way.</p>
          </div>
        )}
      </div>
    </section>
  );
}
