'use client';
/**
 * The connection and lab status line, the "lab server is full" and "lab
 * closed" messages with a way forward, and the errors of refused commands.
 */
import { useTranslations } from 'next-intl';
import { useShallow } from 'zustand/react/shallow';
import { useLabClient, useLabStore } from './lab-provider';
import type { CommandError } from './lab-store';
import { ProblemNotice, StatusLine } from '@/components/status/status-line';
import { useCheckerText } from '@/components/verdict/checker-text';
import styles from './lab.module.css';

export function LabStatus() {
  const client = useLabClient();
  const t = useTranslations('lab.connection');
  const text = useCheckerText();
  const { connection, message: serverEnglish, words, note, labId, nodeCount, elsewhere } = useLabStore(
    useShallow((s) => ({
      connection: s.connection,
      elsewhere: s.labElsewhere,
      message: s.connectionMessage,
      words: s.connectionWords,
      note: s.connectionNote,
      labId: s.labId,
      nodeCount: s.nodeIds.length,
    })),
  );

  // The browser's own notes in the page's language; the server's (a reason, a refusal) from its words when it sent them.
  const serverMessage = serverEnglish === null ? null : text({ message: serverEnglish, words: words ?? undefined });
  const message = note ? t(`note.${note}`, { message: serverMessage ?? '' }) : serverMessage;
  // This browser's labs are in its other tabs: one message, and a way to bring one here.
  if (elsewhere) {
    return (
      <ProblemNotice title={t(`status.${connection}`)}>
        <p data-testid="lab-elsewhere">
          {elsewhere.kind === 'share' ? t('shareText') : elsewhere.to ? t('movedText', { place: elsewhere.to }) : t('movedTextNowhere')}
        </p>
        {message && <p className={styles.serverSays}>{message}</p>}
        <button type="button" className={styles.action} onClick={() => client.useLabHere()}>
          {t('useHere')}
        </button>
        {elsewhere.kind === 'share' && (
          <button type="button" className={styles.action} onClick={() => client.join()}>
            {t('tryAgain')}
          </button>
        )}
      </ProblemNotice>
    );
  }

  if (connection === 'full' || connection === 'closed' || connection === 'failed' || connection === 'moved') {
    return (
      <ProblemNotice title={t(`status.${connection}`)}>
        <p>{connection === 'full' ? t('fullText') : message}</p>
        {connection === 'full' && message && <p className={styles.serverSays}>{t('server', { message })}</p>}
        <button type="button" className={styles.action} onClick={() => client.join({ fresh: connection === 'closed' })}>
          {connection === 'closed' ? t('newLab') : t('tryAgain')}
        </button>
      </ProblemNotice>
    );
  }

  const busy = connection !== 'ready';
  return (
    <StatusLine tone={connection === 'ready' ? 'ok' : connection === 'reconnecting' ? 'waiting' : 'idle'} busy={busy} data={{ 'data-connection': connection }}>
        {connection === 'joining' && message ? message : t(`status.${connection}`)}
        {connection === 'ready' && (
          <>
            {' '}
            · {t('nodes', { n: nodeCount })}
            {labId && (
              <>
                {' '}
                · {t('lab')} <code>{labId.slice(0, 8)}</code>
              </>
            )}
          </>
        )}
        {connection === 'reconnecting' && message ? ` ${message}` : ''}
    </StatusLine>
  );
}

/** "<Kill Node 3> failed: Node 3 is already down", in the page's language where the server sent words. */
export function CommandErrorText({ error }: { error: Omit<CommandError, 'id'> }) {
  const t = useTranslations('lab.connection');
  const text = useCheckerText();
  // The command's name and the server's refusal in the page's language, from their words (English when there are none).
  return t.rich('failed', {
    command: text({ message: error.command, words: error.commandWords }),
    message: error.note ? t(`commandNote.${error.note.kind}`, { seconds: error.note.kind === 'noAnswer' ? error.note.seconds : 0 }) : text(error),
    strong: (chunks) => <strong>{chunks}</strong>,
  });
}

export function CommandErrors() {
  const t = useTranslations('lab.connection');
  const errors = useLabStore((s) => s.errors);
  const dismiss = useLabStore((s) => s.actions.dismissError);
  if (errors.length === 0) return null;
  return (
    <ul className={styles.errors} aria-label={t('errors')}>
      {errors.map((error) => (
        <li key={error.id} className={styles.error} role="alert">
          <span>
            <CommandErrorText error={error} />
          </span>
          <button type="button" className={styles.dismiss} onClick={() => dismiss(error.id)}>
            {t('dismiss')}
          </button>
        </li>
      ))}
    </ul>
  );
}
