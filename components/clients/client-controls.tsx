'use client';
/**
 * The run's clients, each with its state in words and its faults: "Pause
 * Client N" (for a chosen length), "Resume Client N", "Crash Client N".
 * These accessible names are how people and tests find them: keep them.
 *
 * Three layouts: the full-width list (a page of its own), the instrument
 * panel's tiles (up to three clients), and its dense rows (four or five
 * clients, beside five nodes: one line a client, one pause length for all,
 * Pause and Resume one toggle, as the keys Shift+1–5 are).
 */
import { useFormatter, useTranslations } from 'next-intl';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { faultPendingKey } from '@/lib/faults/command-words';
import { ControlButton } from '@/components/cluster/node-controls';
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { clientShortcut } from '@/components/instruments/instrument-keys';
import type { ClientStatus } from './client-states';
import { FaultIcon } from './fault-icon';
import { runActive, runClientStatuses } from './run-client-statuses';
import styles from './clients.module.css';

/** How long a pause lasts, ms; 0 = until resumed. */
const PAUSE_LENGTHS: readonly number[] = [500, 1_000, 2_000, 5_000, 10_000, 0];

export interface ClientControlsProps {
  defaultClients: number;
  /** Said while nothing runs: how this page runs something (the default: it has an editor). */
  idleHint?: string;
  /** The instrument panel's tiles, one per client in a row, instead of the full-width list. */
  compact?: boolean;
  /** The instrument panel's dense rows, for many clients (with `compact`). */
  dense?: boolean;
  /** Dense: what shares the line of the pause length, above the rows (the panel's keys). */
  head?: ReactNode;
}

export function ClientControls({ defaultClients, idleHint, compact = false, dense = false, head }: ClientControlsProps) {
  const t = useTranslations('clients');
  const id = useId();
  // The dense rows share one pause length (a select on each line would leave no room for the state's words).
  const [pauseMs, setPauseMs] = useState(2_000);
  const history = useLabStore((s) => s.history);
  const info = useLabStore((s) => s.run.info);
  const until = useLabStore((s) => s.run.shownUntilT);
  const phase = useLabStore((s) => s.run.phase);
  const statuses = useMemo(() => runClientStatuses({ history, run: { info, shownUntilT: until, phase } }, defaultClients), [history, info, until, phase, defaultClients]);
  const active = runActive(phase);

  if (compact && dense) {
    return (
      <section aria-labelledby="clients-title" className={styles.clients} data-compact data-dense data-testid="clients">
        <h2 id="clients-title" className="visually-hidden">
          {t('title')}
        </h2>
        <div className={styles.denseHead}>
          {head}
          {/* Named in words for a screen reader; seen as the pause shape and the length ("⏸ 2 s"). */}
          <span className={styles.pauseLength} title={t('pauseLengthAll')}>
            <FaultIcon kind="pause" className={styles.icon} />
            <PauseLength id={`${id}-length`} value={pauseMs} onChange={setPauseMs} label={t('pauseLengthAll')} />
          </span>
        </div>
        <ul className={styles.list}>
          {statuses.map((status, i) => (
            <DenseRow key={i + 1} client={i + 1} status={status} active={active} pauseMs={pauseMs} />
          ))}
        </ul>
      </section>
    );
  }
  return (
    <section aria-labelledby="clients-title" className={styles.clients} data-compact={compact || undefined} data-testid="clients">
      <h2 id="clients-title" className={compact ? 'visually-hidden' : styles.title}>
        {t('title')}
      </h2>
      {!active && !compact && <p className={styles.hint}>{idleHint ?? t('idleHint')}</p>}
      <ul className={styles.list}>
        {statuses.map((status, i) => (
          <ClientRow key={i + 1} client={i + 1} status={status} active={active} compact={compact} />
        ))}
      </ul>
    </section>
  );
}

function PauseLength({ id, value, onChange, label }: { id: string; value: number; onChange: (ms: number) => void; label: string }) {
  const t = useTranslations('clients');
  const format = useFormatter();
  return (
    <select id={id} aria-label={label} value={value} onChange={(e) => onChange(Number(e.target.value))} className={styles.select}>
      {PAUSE_LENGTHS.map((ms) => (
        <option key={ms} value={ms}>
          {ms === 0 ? t('untilResumed') : t('seconds', { n: format.number(ms / 1000) })}
        </option>
      ))}
    </select>
  );
}

/**
 * One client on one line: its name, its state, and its faults as a shape and a word. Pause and Resume are one
 * button that turns into the other (one element, so keyboard focus stays on it), each with its own name.
 */
function DenseRow({ client, status, active, pauseMs }: { client: number; status: ClientStatus; active: boolean; pauseMs: number }) {
  const lab = useLabClient();
  const t = useTranslations('clients');
  const label = t('client', { n: client });
  const target = { client };
  const live = active && (status === 'running' || status === 'paused' || status === 'held');
  const resumes = status === 'paused' || status === 'held';
  return (
    <li className={styles.row} data-status={status}>
      <span className={styles.name}>{label}</span>
      <span className={styles.status} data-status={status} data-testid={`client-${client}-status`} title={t(`status.${status}`)}>
        {t(`status.${status}`)}
      </span>
      <span className={styles.controls} role="group" aria-label={t('faultsLabel', { client: label })}>
        {resumes ? (
          <ControlButton key="toggle" name={t('resume.name', { client: label })} pendingKey={faultPendingKey('client-resume', target)} shortcut={clientShortcut(client)} enabled={live} onPress={() => void lab.fault('client-resume', target)}>
            <FaultIcon kind="resume" className={styles.icon} />
            {t('resume.label')}
          </ControlButton>
        ) : (
          <ControlButton
            key="toggle"
            name={t('pause.name', { client: label })}
            pendingKey={faultPendingKey('client-pause', target)}
            variant="danger"
            shortcut={clientShortcut(client)}
            enabled={live && status === 'running'}
            onPress={() => void lab.fault('client-pause', { client, durationMs: pauseMs || undefined })}
          >
            <FaultIcon kind="pause" className={styles.icon} />
            {t('pause.label')}
          </ControlButton>
        )}
        <ControlButton name={t('crash.name', { client: label })} pendingKey={faultPendingKey('client-crash', target)} variant="danger" enabled={live} onPress={() => void lab.fault('client-crash', target)}>
          <FaultIcon kind="crash" className={styles.icon} />
          {t('crash.label')}
        </ControlButton>
        <ControlButton name={t('disconnect.name', { client: label })} pendingKey={faultPendingKey('client-disconnect', target)} variant="danger" enabled={live} onPress={() => void lab.fault('client-disconnect', target)}>
          <FaultIcon kind="disconnect" className={styles.icon} />
          {t('disconnect.tile')}
        </ControlButton>
      </span>
    </li>
  );
}

function ClientRow({ client, status, active, compact }: { client: number; status: ClientStatus; active: boolean; compact: boolean }) {
  const lab = useLabClient();
  const t = useTranslations('clients');
  const format = useFormatter();
  const id = useId();
  const [pauseMs, setPauseMs] = useState(2_000);
  const label = t('client', { n: client });
  const target = { client };
  const live = active && (status === 'running' || status === 'paused' || status === 'held');
  return (
    <li className={styles.row} data-status={status}>
      <span className={styles.name}>{label}</span>
      <span className={styles.status} data-status={status} data-testid={`client-${client}-status`}>
        {t(`status.${status}`)}
      </span>
      <span className={styles.controls} role="group" aria-label={t('faultsLabel', { client: label })}>
        <label className="visually-hidden" htmlFor={`${id}-length`}>
          {t('pauseLength', { client: label })}
        </label>
        <select id={`${id}-length`} value={pauseMs} onChange={(e) => setPauseMs(Number(e.target.value))} className={styles.select}>
          {PAUSE_LENGTHS.map((ms) => (
            <option key={ms} value={ms}>
              {ms === 0 ? t('untilResumed') : t('seconds', { n: format.number(ms / 1000) })}
            </option>
          ))}
        </select>
        <ControlButton
          name={t('pause.name', { client: label })}
          pendingKey={faultPendingKey('client-pause', target)}
          variant="danger"
          shortcut={compact ? clientShortcut(client) : undefined}
          enabled={live && status === 'running'}
          onPress={() => void lab.fault('client-pause', { client, durationMs: pauseMs || undefined })}
        >
          {t('pause.label')}
        </ControlButton>
        <ControlButton name={t('resume.name', { client: label })} pendingKey={faultPendingKey('client-resume', target)} shortcut={compact ? clientShortcut(client) : undefined} enabled={live && (status === 'paused' || status === 'held')} onPress={() => void lab.fault('client-resume', target)}>
          {t('resume.label')}
        </ControlButton>
        <ControlButton name={t('crash.name', { client: label })} pendingKey={faultPendingKey('client-crash', target)} variant="danger" enabled={live} onPress={() => void lab.fault('client-crash', target)}>
          {t('crash.label')}
        </ControlButton>
        <ControlButton
          name={t('disconnect.name', { client: label })}
          pendingKey={faultPendingKey('client-disconnect', target)}
          variant="danger"
          enabled={live}
          onPress={() => void lab.fault('client-disconnect', target)}
        >
          {t('disconnect.label')}
        </ControlButton>
      </span>
    </li>
  );
}
