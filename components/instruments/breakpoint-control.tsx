'use client';
/**
 * "Pause the run when …": the learner picks a moment of the run (a client
 * granted the lock, entering or leaving its job, a command of its answered, a
 * node granting a vote). When the run reaches it every client freezes; the
 * stop says so, in the page's language, with Resume and Step, right under Run
 * and above the nodes' and clients' own buttons, so faults go in while the
 * world stands still. The choice sits at the panel's foot: it is made before
 * Run, and at 1280×800 the instruments above it keep the screen.
 */
import { useLocale, useMessages, useTranslations } from 'next-intl';
import { useId, useMemo } from 'react';
import { useLabClient, useLabReadOnly, useLabStore } from '@/components/lab/lab-provider';
import { breakpointChoices } from '@/components/lab/breakpoint-state';
import { CheckerText } from '@/components/verdict/checker-text';
import { triggerWords } from '@/lib/scenario-words';
import { render } from '@/lib/words';
import styles from './instruments.module.css';

export function BreakpointChoice({ defaultClients }: { defaultClients: number }) {
  const t = useTranslations('workspace.breakpoint');
  const locale = useLocale();
  const catalogue = useMessages();
  const id = useId();
  const lab = useLabClient();
  const readOnly = useLabReadOnly();
  const clients = useLabStore((s) => Math.max(s.clients, defaultClients));
  const nodes = useLabStore((s) => s.nodeIds.length);
  const chosen = useLabStore((s) => s.breakpoint);
  const choices = useMemo(() => breakpointChoices(clients, nodes), [clients, nodes]);
  if (readOnly) return null;
  const chosenId = chosen ? (choices.find((c) => JSON.stringify(c.when) === JSON.stringify(chosen))?.id ?? '') : '';
  const label = (when: (typeof choices)[number]['when']) => render(triggerWords(when), locale, catalogue);
  const byClient = choices.filter((c) => !c.id.startsWith('vote-'));
  const votes = choices.filter((c) => c.id.startsWith('vote-'));
  const group = (name: string, items: typeof choices) => (
    <optgroup label={name}>
      {items.map((c) => (
        <option key={c.id} value={c.id}>
          {label(c.when)}
        </option>
      ))}
    </optgroup>
  );
  return (
    <div className={styles.breakpoint} data-testid="breakpoint">
      <label htmlFor={`${id}-when`}>{t('label')}</label>
      <select
        id={`${id}-when`}
        value={chosenId}
        onChange={(e) => void lab.setBreakpoint(choices.find((c) => c.id === e.target.value)?.when ?? null)}
      >
        <option value="">{t('never')}</option>
        {group(t('clients'), byClient)}
        {votes.length > 0 ? group(t('votes'), votes) : null}
      </select>
    </div>
  );
}

/** The run stands at the learner's breakpoint: what froze, and the way on. Nothing while it goes. */
export function BreakpointStop() {
  const t = useTranslations('workspace.breakpoint');
  const lab = useLabClient();
  const readOnly = useLabReadOnly();
  const stop = useLabStore((s) => (s.breakpointStop && s.run.phase === 'running' && s.run.info?.runId === s.breakpointStop.runId ? s.breakpointStop : null));
  if (!stop || readOnly) return null;
  return (
    <div className={styles.stopped} role="status" data-testid="breakpoint-stop">
      <p>
        <CheckerText said={{ message: stop.text, words: stop.words }} />
      </p>
      <div className={styles.stoppedButtons}>
        <button type="button" onClick={() => void lab.continueRun(false)} title={t('resumeTitle')}>
          {t('resume')}
        </button>
        <button type="button" onClick={() => void lab.continueRun(true)} title={t('stepTitle')}>
          {t('step')}
        </button>
      </div>
    </div>
  );
}
