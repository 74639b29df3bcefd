'use client';
/**
 * Run, Stop, how many clients, which scenario, and what the lab is doing now
 * (in the instrument panel); the editor's own actions and the scenario's
 * description sit above the editor (EditorActions).
 */
import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { MAX_CLIENTS } from '@/lib/cluster';
import type { Scenario } from '@/lib/scenario';
import { useLabStore } from '@/components/lab/lab-provider';
import styles from './workspace.module.css';

export interface ToolbarProps {
  scenarios: readonly Scenario[];
  scenarioId: string;
  onScenario: (id: string) => void;
  clients: number;
  onClients: (clients: number) => void;
  onRun: () => void;
  onStop: () => void;
  /** The id of the scenario's description (EditorActions), which the scenario field points at. */
  aboutId: string;
}

export function Toolbar(props: ToolbarProps) {
  const t = useTranslations('workspace.toolbar');
  const id = useId();
  const aboutId = props.aboutId;
  const phase = useLabStore((s) => s.run.phase);
  // Which run the words are about: a run that ends between two looks still reads as a new one (people see the verdict change; tests read this).
  const runId = useLabStore((s) => s.run.info?.runId);
  const ahead = useLabStore((s) => s.run.waitingAhead);
  const connected = useLabStore((s) => s.connection === 'ready');
  const valid = useLabStore((s) => s.run.verdict?.valid ?? null);
  const final = useLabStore((s) => s.run.verdict?.final ?? false);
  const didNotCompile = useLabStore((s) => s.run.ended?.outcome.status === 'syntax-error');
  const check = useLabStore((s) => s.run.info?.check ?? null);
  // A check's run shown after the check answered can be left for the learner's own (check-runs.ts).
  const canGoBack = useLabStore((s) => s.exercise.phase !== 'checking' && s.checkRuns.own !== null);
  const showOwnRun = useLabStore((s) => s.actions.showOwnRun);
  const busy = phase === 'starting' || phase === 'running' || phase === 'stopping';
  const chosen = props.scenarios.find((s) => s.id === props.scenarioId);

  const phaseWords = (): string => {
    switch (phase) {
      case 'starting':
        return ahead !== null ? t('phase.waitingSlot', { ahead }) : t('phase.starting');
      case 'running':
        return valid ? t('phase.runningSoFar', { validity: t(`validity.${valid}`) }) : t('phase.running');
      case 'stopping':
        return t('phase.stopping');
      case 'ended':
        return didNotCompile ? t('phase.syntaxError') : valid && final ? t('phase.finishedWith', { validity: t(`validity.${valid}`) }) : t('phase.finished');
      default:
        return connected ? t('phase.ready') : t('phase.waitingLab');
    }
  };
  /** A run of "Check my solution" is named as the check's, never given the learner's status ("Finished · held"). */
  const checkWords = (tag: NonNullable<typeof check>): string => {
    const title = tag.hidden ? t('checkRun.hidden', { n: tag.hidden.n, total: tag.hidden.total }) : (tag.title ?? '');
    const shown = t('checkRun.shown', { n: tag.n, total: tag.total, title });
    if (phase !== 'ended') return t('checkRun.running', { shown });
    return valid && final ? t('checkRun.finishedWith', { shown, validity: t(`validity.${valid}`) }) : t('checkRun.finished', { shown });
  };
  const progress = check ? checkWords(check) : phaseWords();

  return (
    <div className={styles.toolbar} role="toolbar" aria-label={t('label')}>
      <button type="button" className={styles.run} onClick={props.onRun} aria-keyshortcuts="Control+Enter Meta+Enter" aria-disabled={connected ? undefined : true}>
        <span aria-hidden="true">▶ </span>
        {t('run')}
      </button>
      <button type="button" className={styles.stop} onClick={props.onStop} aria-disabled={busy ? undefined : true}>
        <span aria-hidden="true">■ </span>
        {t('stop')}
      </button>
      <span className={styles.field}>
        <label htmlFor={`${id}-clients`}>{t('clients')}</label>
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
        <label htmlFor={`${id}-scenario`}>{t('scenario')}</label>
        <select id={`${id}-scenario`} value={props.scenarioId} onChange={(e) => props.onScenario(e.target.value)} aria-describedby={chosen ? aboutId : undefined}>
          <option value="">{t('noScenario')}</option>
          {props.scenarios.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </span>
      <p className={styles.progress} role="status" data-phase={phase} data-run-id={runId} data-testid="run-progress" data-check-run={check ? check.n : undefined}>
        {busy && <span className={styles.spinner} aria-hidden="true" />}
        {progress}
        {check && canGoBack && (
          <>
            {' '}
            <button type="button" className={styles.linkButton} onClick={showOwnRun} data-testid="back-to-my-run">
              {t('checkRun.back')}
            </button>
          </>
        )}
      </p>
    </div>
  );
}

export interface EditorActionsProps {
  scenario: Scenario | undefined;
  onReset: () => void;
  onShowSolution: (() => void) | null;
  /**
   * The editor shows the learner's own code, and the chosen scenario was
   * written for another program: say that Run runs their code in it, and
   * offer the scenario's program.
   */
  myCodeInScenario?: { writtenFor: string; show: () => void } | null;
  aboutId: string;
}

/** Above the editor: what the chosen scenario does and whose program Run runs in it, Reset, Show solution. */
export function EditorActions(props: EditorActionsProps) {
  const t = useTranslations('workspace.toolbar');
  const chosen = props.scenario;
  return (
    <div className={styles.editorActions}>
      <span className={styles.editActions}>
        <button type="button" onClick={props.onReset}>
          {t('reset')}
        </button>
        {props.onShowSolution && (
          <button type="button" onClick={props.onShowSolution}>
            {t('showSolution')}
          </button>
        )}
      </span>
      {(chosen?.description || props.myCodeInScenario) && (
        <p id={props.aboutId} className={styles.scenarioAbout}>
          {chosen?.description}
          {props.myCodeInScenario && (
            <>
              {' '}
              <span className={styles.scenarioProgram} data-testid="my-code-in-scenario">
                {t('writtenFor', { program: props.myCodeInScenario.writtenFor })}{' '}
                <button type="button" className={styles.linkButton} onClick={props.myCodeInScenario.show}>
                  {t('showScenarioProgram')}
                </button>
              </span>
            </>
          )}
        </p>
      )}
    </div>
  );
}
