'use client';
/** Run, Stop, how many clients, which scenario, and what the lab is doing now. */
import { useId } from 'react';
import { MAX_CLIENTS } from '@/lib/cluster';
import type { Scenario } from '@/lib/scenario';
import { useLabStore } from '@/components/lab/lab-provider';
import { VALIDITY_WORDS } from '@/components/verdict/verdict-words';
import styles from './workspace.module.css';

export interface ToolbarProps {
  scenarios: readonly Scenario[];
  scenarioId: string;
  onScenario: (id: string) => void;
  clients: number;
  onClients: (clients: number) => void;
  onRun: () => void;
  onStop: () => void;
  onReset: () => void;
  onShowSolution: (() => void) | null;
  /**
   * The editor shows the learner's own code, and the chosen scenario was
   * written for another program: say that Run runs their code in it, and
   * offer the scenario's program.
   */
  myCodeInScenario?: { writtenFor: string; show: () => void } | null;
}

export function Toolbar(props: ToolbarProps) {
  const id = useId();
  const phase = useLabStore((s) => s.run.phase);
  const ahead = useLabStore((s) => s.run.waitingAhead);
  const connected = useLabStore((s) => s.connection === 'ready');
  const valid = useLabStore((s) => s.run.verdict?.valid ?? null);
  const final = useLabStore((s) => s.run.verdict?.final ?? false);
  const didNotCompile = useLabStore((s) => s.run.ended?.outcome.status === 'syntax-error');
  const busy = phase === 'starting' || phase === 'running' || phase === 'stopping';
  const chosen = props.scenarios.find((s) => s.id === props.scenarioId);

  const progress =
    phase === 'starting'
      ? ahead !== null
        ? `Waiting for a free slot: the server is running other learners' programs (${ahead} ahead of yours)…`
        : 'Starting your program…'
      : phase === 'running'
        ? `Running · checking as it goes${valid ? `: ${VALIDITY_WORDS[valid].word} so far` : ''}`
        : phase === 'stopping'
          ? 'Stopping…'
          : phase === 'ended'
            ? didNotCompile
              ? 'Did not run: syntax error'
              : valid && final
              ? `Finished · ${VALIDITY_WORDS[valid].word}`
              : 'Finished'
            : connected
              ? 'Ready'
              : 'Waiting for the lab…';

  return (
    <div className={styles.toolbar} role="toolbar" aria-label="Run controls">
      <button type="button" className={styles.run} onClick={props.onRun} aria-keyshortcuts="Control+Enter Meta+Enter" aria-disabled={connected ? undefined : true}>
        <span aria-hidden="true">▶ </span>Run
      </button>
      <button type="button" className={styles.stop} onClick={props.onStop} aria-disabled={busy ? undefined : true}>
        <span aria-hidden="true">■ </span>Stop
      </button>
      <span className={styles.field}>
        <label htmlFor={`${id}-clients`}>Clients</label>
        <input
          id={`${id}-clients`}
          type="number"
          min={1}
          max={MAX_CLIENTS}
          value={props.clients}
          onChange={(e) => {
            const n = Math.round(Number(e.target.value));
            if (Number.isFinite(n)) props.onClients(Math.min(MAX_CLIENTS, Math.max(1, n)));
          }}
        />
      </span>
      <span className={styles.field}>
        <label htmlFor={`${id}-scenario`}>Scenario</label>
        <select id={`${id}-scenario`} value={props.scenarioId} onChange={(e) => props.onScenario(e.target.value)} aria-describedby={chosen ? `${id}-scenario-about` : undefined}>
          <option value="">None: just run</option>
          {props.scenarios.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </span>
      <p className={styles.progress} role="status" data-phase={phase} data-testid="run-progress">
        {busy && <span className={styles.spinner} aria-hidden="true" />}
        {progress}
      </p>
      <span className={styles.editActions}>
        <button type="button" onClick={props.onReset}>
          Reset to starter
        </button>
        {props.onShowSolution && (
          <button type="button" onClick={props.onShowSolution}>
            Show solution
          </button>
        )}
      </span>
      {(chosen?.description || props.myCodeInScenario) && (
        <p id={`${id}-scenario-about`} className={styles.scenarioAbout}>
          {chosen?.description}
          {props.myCodeInScenario && (
            <>
              {' '}
              <span className={styles.scenarioProgram} data-testid="my-code-in-scenario">
                This scenario was written for {props.myCodeInScenario.writtenFor}; Run runs your code in it instead.{' '}
                <button type="button" className={styles.linkButton} onClick={props.myCodeInScenario.show}>
                  Show the scenario&apos;s program
                </button>
              </span>
            </>
          )}
        </p>
      )}
    </div>
  );
}
