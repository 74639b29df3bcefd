'use client';
/**
 * The connection and lab status line, the "lab server is full" and "lab
 * closed" messages with a way forward, and the errors of refused commands.
 */
import { useShallow } from 'zustand/react/shallow';
import { useLabClient, useLabStore } from './lab-provider';
import { ProblemNotice, StatusLine } from '@/components/status/status-line';
import styles from './lab.module.css';

const STATUS_WORDS = {
  connecting: 'Connecting to the lab server…',
  joining: 'Starting your lab…',
  ready: 'Lab running',
  reconnecting: 'Reconnecting…',
  // Two limits say this: the server's cap and this browser's share; the server's own words say which.
  full: 'No lab for this tab right now',
  closed: 'Your lab was closed',
  failed: 'Could not start your lab',
} as const;

export function LabStatus() {
  const client = useLabClient();
  const { connection, message, labId, nodeCount } = useLabStore(
    useShallow((s) => ({
      connection: s.connection,
      message: s.connectionMessage,
      labId: s.labId,
      nodeCount: s.nodeIds.length,
    })),
  );

  if (connection === 'full' || connection === 'closed' || connection === 'failed') {
    return (
      <ProblemNotice title={STATUS_WORDS[connection]}>
        <p>
          {connection === 'full'
            ? 'No lab could be started for this tab. A lab is freed about a minute after its last tab closes; try again then.'
            : message}
        </p>
        {connection === 'full' && message && <p className={styles.serverSays}>Server: {message}</p>}
        <button type="button" className={styles.action} onClick={() => client.join({ fresh: connection === 'closed' })}>
          {connection === 'closed' ? 'Start a new lab' : 'Try again'}
        </button>
      </ProblemNotice>
    );
  }

  const busy = connection !== 'ready';
  return (
    <StatusLine tone={connection === 'ready' ? 'ok' : connection === 'reconnecting' ? 'waiting' : 'idle'} busy={busy} data={{ 'data-connection': connection }}>
        {connection === 'joining' && message ? message : STATUS_WORDS[connection]}
        {connection === 'ready' && (
          <>
            {' '}
            · {nodeCount} {nodeCount === 1 ? 'node' : 'nodes'}
            {labId && (
              <>
                {' '}
                · lab <code>{labId.slice(0, 8)}</code>
              </>
            )}
          </>
        )}
        {connection === 'reconnecting' && message ? ` ${message}` : ''}
    </StatusLine>
  );
}

export function CommandErrors() {
  const errors = useLabStore((s) => s.errors);
  const dismiss = useLabStore((s) => s.actions.dismissError);
  if (errors.length === 0) return null;
  return (
    <ul className={styles.errors} aria-label="Errors">
      {errors.map((error) => (
        <li key={error.id} className={styles.error} role="alert">
          <span>
            <strong>{error.command}</strong> failed: {error.message}
          </span>
          <button type="button" className={styles.dismiss} onClick={() => dismiss(error.id)}>
            Dismiss
          </button>
        </li>
      ))}
    </ul>
  );
}
