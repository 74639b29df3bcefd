'use client';
/**
 * The fault buttons of one node. Their accessible names ("Kill Node 2", …)
 * are how people and tests find them: keep them exactly.
 *
 * A button that does not apply to the node's state is marked aria-disabled
 * rather than disabled, so keyboard focus stays on it after a click changes
 * the state (a disabled button would drop focus to the page); and it leaves
 * the tab order, so Tab does not stop on twenty buttons that do nothing.
 */
import { useTranslations } from 'next-intl';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { PERSISTENCE_MODES, type NodeView, type Persistence } from '@/lib/cluster';
import { faultPendingKey } from '@/lib/faults/command-words';
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { nodeShortcut } from '@/components/instruments/instrument-keys';
import { persistenceShort } from './node-words';
import styles from './cluster.module.css';

export interface ControlButtonProps {
  /** The accessible name, in the page's language. */
  name: string;
  /** What the command is pending under in the store: its op and target (`faultPendingKey`), never its words. */
  pendingKey: string;
  enabled: boolean;
  onPress: () => void;
  variant?: 'danger' | 'normal';
  /** The instrument key that presses it too (aria-keyshortcuts: "1", "Shift+1"). */
  shortcut?: string | undefined;
  children: ReactNode;
}

export function ControlButton({ name, pendingKey, enabled, onPress, variant = 'normal', shortcut, children }: ControlButtonProps) {
  const pending = useLabStore((s) => pendingKey in s.pending);
  const usable = enabled && !pending;
  return (
    <button
      type="button"
      className={styles.control}
      data-variant={variant}
      aria-label={name}
      // A tile shows a short word; the whole name on hover.
      title={name}
      aria-disabled={usable ? undefined : true}
      tabIndex={usable ? undefined : -1}
      aria-busy={pending || undefined}
      aria-keyshortcuts={shortcut}
      onClick={() => {
        if (usable) onPress();
      }}
    >
      {children}
    </button>
  );
}

/**
 * `compact`: the instrument panel's tile, five abreast: each button shows its tile label, a word short enough to be
 * read whole there. `toggles` (a crowded panel: five clients too): two buttons, Kill that turns into Restart and Pause
 * into Resume, as the key 1–5 and the phone strip do; each keeps its own name while it shows.
 */
export function NodeControls({ node, compact = false, toggles = false }: { node: NodeView; compact?: boolean; toggles?: boolean }) {
  const client = useLabClient();
  const t = useTranslations('cluster');
  const label = t('node', { n: node.id });
  const target = { node: node.id };
  const restartPending = node.restartDueAt !== null;
  const canRestart = node.state === 'down' && !restartPending;

  if (compact && toggles) {
    // One element per slot whichever it shows, so keyboard focus stays on it when the node's state turns it over.
    const down = node.state === 'down';
    const paused = node.state === 'paused';
    return (
      <div className={styles.controls}>
        <div className={styles.buttons} role="group" aria-label={t('faultsLabel', { node: label })}>
          <ControlButton
            name={t(down ? 'restart.name' : 'kill.name', { node: label })}
            pendingKey={faultPendingKey(down ? 'node-restart' : 'node-kill', target)}
            variant={down ? 'normal' : 'danger'}
            shortcut={nodeShortcut(node.id)}
            enabled={down ? canRestart : true}
            onPress={() => void (down ? client.fault('node-restart', target) : client.fault('node-kill', target))}
          >
            {t(down ? 'restart.tile' : 'kill.tile')}
          </ControlButton>
          <ControlButton
            name={t(paused ? 'resume.name' : 'pause.name', { node: label })}
            pendingKey={faultPendingKey(paused ? 'node-resume' : 'node-pause', target)}
            variant={paused ? 'normal' : 'danger'}
            enabled={paused || node.state === 'up'}
            onPress={() => void (paused ? client.fault('node-resume', target) : client.fault('node-pause', target))}
          >
            {t(paused ? 'resume.tile' : 'pause.tile')}
          </ControlButton>
        </div>
      </div>
    );
  }

  return (
    <div className={styles.controls}>
      <div className={styles.buttons} role="group" aria-label={t('faultsLabel', { node: label })}>
        <ControlButton
          name={t('kill.name', { node: label })}
          pendingKey={faultPendingKey('node-kill', target)}
          variant="danger"
          shortcut={compact ? nodeShortcut(node.id) : undefined}
          enabled={node.state !== 'down'}
          onPress={() => void client.fault('node-kill', target)}
        >
          {t(compact ? 'kill.tile' : 'kill.label')}
        </ControlButton>
        <ControlButton
          name={t('restart.name', { node: label })}
          pendingKey={faultPendingKey('node-restart', target)}
          shortcut={compact ? nodeShortcut(node.id) : undefined}
          enabled={canRestart}
          onPress={() => void client.fault('node-restart', target)}
        >
          {t(compact ? 'restart.tile' : 'restart.label')}
        </ControlButton>
        <ControlButton
          name={t('pause.name', { node: label })}
          pendingKey={faultPendingKey('node-pause', target)}
          variant="danger"
          enabled={node.state === 'up'}
          onPress={() => void client.fault('node-pause', target)}
        >
          {t(compact ? 'pause.tile' : 'pause.label')}
        </ControlButton>
        <ControlButton
          name={t('resume.name', { node: label })}
          pendingKey={faultPendingKey('node-resume', target)}
          enabled={node.state === 'paused'}
          onPress={() => void client.fault('node-resume', target)}
        >
          {t(compact ? 'resume.tile' : 'resume.label')}
        </ControlButton>
      </div>
      {!compact && <RestartOptions node={node} enabled={canRestart} pending={restartPending} />}
    </div>
  );
}

/** Restart with another persistence mode and/or after a delay (redis.io's "delayed restart"). */
export function RestartOptions({ node, enabled, pending }: { node: NodeView; enabled: boolean; pending: boolean }) {
  const client = useLabClient();
  const t = useTranslations('cluster');
  const id = useId();
  const [persistence, setPersistence] = useState<Persistence>(node.persistence);
  const [delaySeconds, setDelaySeconds] = useState('0');
  const delayMs = Math.round(Number(delaySeconds) * 1000);
  const delayValid = Number.isFinite(delayMs) && delayMs >= 0 && delayMs <= 600_000;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!enabled || !delayValid) return;
    void client.fault('node-restart', { node: node.id, persistence, delayMs });
  };

  return (
    <details className={styles.options}>
      <summary aria-label={t('options.name', { node: t('node', { n: node.id }) })}>{t('options.label')}</summary>
      <form className={styles.optionsForm} onSubmit={submit}>
        <label htmlFor={`${id}-persistence`}>{t('fact.persistence')}</label>
        <select
          id={`${id}-persistence`}
          value={persistence}
          onChange={(e) => setPersistence(e.target.value as Persistence)}
        >
          {PERSISTENCE_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {persistenceShort(t, mode)}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-delay`}>{t('options.delay')}</label>
        <input
          id={`${id}-delay`}
          type="number"
          inputMode="decimal"
          min={0}
          max={600}
          step={0.5}
          value={delaySeconds}
          aria-invalid={!delayValid || undefined}
          onChange={(e) => setDelaySeconds(e.target.value)}
        />
        <button type="submit" className={styles.control} aria-disabled={enabled && delayValid ? undefined : true}>
          {t('options.submit')}
        </button>
        {!enabled && (
          <p className={styles.hint}>
            {pending ? t('options.pending') : t('options.whenDown')}
          </p>
        )}
      </form>
    </details>
  );
}
