'use client';
/**
 * The run's clients, each with its state in words and its faults: "Pause
 * Client N" (for a chosen length), "Resume Client N", "Crash Client N".
 * These accessible names are how people and tests find them: keep them.
 */
import { useId, useMemo, useState } from 'react';
import { ControlButton } from '@/components/cluster/node-controls';
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { lowerBoundT } from '@/components/lab/run-state';
import { CLIENT_STATUS_WORDS, clientStatuses, type ClientStatus } from './client-states';
import styles from './clients.module.css';

const PAUSE_LENGTHS: ReadonlyArray<{ ms: number; words: string }> = [
  { ms: 500, words: '0.5 s' },
  { ms: 1_000, words: '1 s' },
  { ms: 2_000, words: '2 s' },
  { ms: 5_000, words: '5 s' },
  { ms: 10_000, words: '10 s' },
  { ms: 0, words: 'until resumed' },
];

export interface ClientControlsProps {
  defaultClients: number;
  /** Said while nothing runs: how this page runs something (the default: it has an editor). */
  idleHint?: string;
}

export function ClientControls({ defaultClients, idleHint = 'Run your program to pause or crash its clients while it runs.' }: ClientControlsProps) {
  const history = useLabStore((s) => s.history);
  const info = useLabStore((s) => s.run.info);
  const phase = useLabStore((s) => s.run.phase);
  const clients = info?.clients ?? defaultClients;
  const statuses = useMemo(() => {
    if (!info) return Array.from({ length: clients }, (): ClientStatus => 'waiting');
    return clientStatuses(history.slice(lowerBoundT(history, info.startedAt)), clients);
  }, [history, info, clients]);
  const active = phase === 'running' || phase === 'starting' || phase === 'stopping';

  return (
    <section aria-labelledby="clients-title" className={styles.clients}>
      <h2 id="clients-title" className={styles.title}>
        Clients
      </h2>
      {!active && <p className={styles.hint}>{idleHint}</p>}
      <ul className={styles.list}>
        {statuses.map((status, i) => (
          <ClientRow key={i + 1} client={i + 1} status={status} active={active} />
        ))}
      </ul>
    </section>
  );
}

function ClientRow({ client, status, active }: { client: number; status: ClientStatus; active: boolean }) {
  const lab = useLabClient();
  const id = useId();
  const [pauseMs, setPauseMs] = useState(2_000);
  const label = `Client ${client}`;
  const live = active && (status === 'running' || status === 'paused');
  return (
    <li className={styles.row} data-status={status}>
      <span className={styles.name}>{label}</span>
      <span className={styles.status} data-status={status} data-testid={`client-${client}-status`}>
        {CLIENT_STATUS_WORDS[status]}
      </span>
      <span className={styles.controls} role="group" aria-label={`${label} faults`}>
        <label className="visually-hidden" htmlFor={`${id}-length`}>
          Pause length for {label}
        </label>
        <select id={`${id}-length`} value={pauseMs} onChange={(e) => setPauseMs(Number(e.target.value))} className={styles.select}>
          {PAUSE_LENGTHS.map((p) => (
            <option key={p.ms} value={p.ms}>
              {p.words}
            </option>
          ))}
        </select>
        <ControlButton name={`Pause ${label}`} variant="danger" enabled={live && status === 'running'} onPress={() => void lab.fault('client-pause', { client, durationMs: pauseMs || undefined })}>
          Pause
        </ControlButton>
        <ControlButton name={`Resume ${label}`} enabled={live && status === 'paused'} onPress={() => void lab.fault('client-resume', { client })}>
          Resume
        </ControlButton>
        <ControlButton name={`Crash ${label}`} variant="danger" enabled={live} onPress={() => void lab.fault('client-crash', { client })}>
          Crash
        </ControlButton>
        <ControlButton name={`Drop connections of ${label}`} variant="danger" enabled={live} onPress={() => void lab.fault('client-disconnect', { client })}>
          Drop connections
        </ControlButton>
      </span>
    </li>
  );
}
