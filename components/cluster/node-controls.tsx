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
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { PERSISTENCE_MODES, type NodeView, type Persistence } from '@/lib/cluster';
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { PERSISTENCE_SHORT } from './node-words';
import styles from './cluster.module.css';

export interface ControlButtonProps {
  name: string;
  enabled: boolean;
  onPress: () => void;
  variant?: 'danger' | 'normal';
  children: ReactNode;
}

export function ControlButton({ name, enabled, onPress, variant = 'normal', children }: ControlButtonProps) {
  const pending = useLabStore((s) => name in s.pending);
  const usable = enabled && !pending;
  return (
    <button
      type="button"
      className={styles.control}
      data-variant={variant}
      aria-label={name}
      aria-disabled={usable ? undefined : true}
      tabIndex={usable ? undefined : -1}
      aria-busy={pending || undefined}
      onClick={() => {
        if (usable) onPress();
      }}
    >
      {children}
    </button>
  );
}

export function NodeControls({ node }: { node: NodeView }) {
  const client = useLabClient();
  const label = node.label;
  const restartPending = node.restartDueAt !== null;
  const canRestart = node.state === 'down' && !restartPending;

  return (
    <div className={styles.controls}>
      <div className={styles.buttons} role="group" aria-label={`${label} faults`}>
        <ControlButton
          name={`Kill ${label}`}
          variant="danger"
          enabled={node.state !== 'down'}
          onPress={() => void client.fault('node-kill', { node: node.id })}
        >
          Kill
        </ControlButton>
        <ControlButton name={`Restart ${label}`} enabled={canRestart} onPress={() => void client.fault('node-restart', { node: node.id })}>
          Restart
        </ControlButton>
        <ControlButton
          name={`Pause ${label}`}
          variant="danger"
          enabled={node.state === 'up'}
          onPress={() => void client.fault('node-pause', { node: node.id })}
        >
          Pause
        </ControlButton>
        <ControlButton name={`Resume ${label}`} enabled={node.state === 'paused'} onPress={() => void client.fault('node-resume', { node: node.id })}>
          Resume
        </ControlButton>
      </div>
      <RestartOptions node={node} enabled={canRestart} pending={restartPending} />
    </div>
  );
}

/** Restart with another persistence mode and/or after a delay (redis.io's "delayed restart"). */
function RestartOptions({ node, enabled, pending }: { node: NodeView; enabled: boolean; pending: boolean }) {
  const client = useLabClient();
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
      <summary aria-label={`Restart options for ${node.label}`}>Restart options</summary>
      <form className={styles.optionsForm} onSubmit={submit}>
        <label htmlFor={`${id}-persistence`}>Persistence</label>
        <select
          id={`${id}-persistence`}
          value={persistence}
          onChange={(e) => setPersistence(e.target.value as Persistence)}
        >
          {PERSISTENCE_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {PERSISTENCE_SHORT[mode]}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-delay`}>Delay (seconds)</label>
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
          Restart with these options
        </button>
        {!enabled && (
          <p className={styles.hint}>
            {pending ? 'A restart is already on its way.' : 'A node can be restarted once it is down.'}
          </p>
        )}
      </form>
    </details>
  );
}
