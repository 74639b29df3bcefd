'use client';
/**
 * Starting a class: the instructor gives the instructor token (from the
 * server's log or LOCKLAB_INSTRUCTOR_TOKEN) and a name; the class is created
 * on a short-lived connection and the console opens, which joins it as its
 * instructor with the token kept in this tab. Learners can type a join code
 * here too: the index's "Join a class" lands on `#join`, with the code field focused.
 */
import { useTranslations } from 'next-intl';
import { useRouter } from '@/i18n/navigation';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { io } from 'socket.io-client';
import type { LabSocket } from '@/components/lab/socket-client';
import { ensureBrowserIdentity } from '@/components/lab/browser-identity';
import { normalizeCode, saveCredentials, tabStorage } from './classroom-state';
import { postTicket } from './classroom-client';
import styles from './classroom.module.css';
import { useCheckerText } from '@/components/verdict/checker-text';

export function CreateClassroom() {
  const t = useTranslations('classroom');
  const serverText = useCheckerText();
  const router = useRouter();
  const id = useId();
  const [token, setToken] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [joinCode, setJoinCode] = useState('');
  const [joinError, setJoinError] = useState<string | null>(null);
  const joinInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (window.location.hash === '#join') joinInput.current?.focus();
  }, []);

  const create = (event: FormEvent) => {
    event.preventDefault();
    if (busy || token.trim() === '') return;
    setBusy(true);
    setError(null);
    const socket: LabSocket = io({ autoConnect: false, reconnection: false });
    const done = (message: string | null) => {
      socket.disconnect();
      if (message !== null) {
        setError(message);
        setBusy(false);
      }
    };
    socket.on('connect_error', (e) => done(t('create.unreachable', { detail: e.message })));
    socket.on('connect', () => {
      // A class without a name is named in the instructor's language (the server's own default is English).
      const input = { token: token.trim(), name: name.trim() || t('create.defaultName') };
      socket.timeout(30_000).emit('classroom:create', input, (err, result) => {
        if (err) return done(t('create.slow'));
        if (!result.ok) return done(result.error.code === 'forbidden' ? t('create.forbidden') : serverText(result.error));
        saveCredentials(tabStorage(), { role: 'instructor', code: result.value.code, token: token.trim() });
        done(null);
        const open = () => router.push(`/classroom/${result.value.code}/instructor`);
        // Remembered in this browser (an HttpOnly cookie) before the console opens; if that fails, the tab keeps its token.
        const ticket = result.value.instructorTicket;
        if (ticket) void postTicket(ticket).catch(() => undefined).finally(open);
        else open();
      });
    });
    // Like every socket of a page, it opens with the browser's identity, bought first if the browser has none.
    ensureBrowserIdentity().then(
      () => socket.connect(),
      (e: Error) => done(t('create.unreachable', { detail: e.message })),
    );
  };

  const join = (event: FormEvent) => {
    event.preventDefault();
    const code = normalizeCode(joinCode);
    if (!code) {
      setJoinError(t('create.badCode'));
      return;
    }
    router.push(`/classroom/${code}`);
  };

  return (
    <div className={styles.startGrid}>
      <form className={styles.card} onSubmit={create} aria-labelledby={`${id}-create`}>
        <h2 id={`${id}-create`}>{t('create.teach')}</h2>
        <label htmlFor={`${id}-token`}>{t('create.token')}</label>
        <input
          id={`${id}-token`}
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-describedby={`${id}-token-hint`}
          aria-invalid={error ? true : undefined}
          required
        />
        <p id={`${id}-token-hint`} className={styles.hint}>
          {t.rich('create.tokenHint', { code: (c) => <code>{c}</code> })}
        </p>
        <label htmlFor={`${id}-name`}>{t('create.name')}</label>
        <input id={`${id}-name`} value={name} maxLength={80} onChange={(e) => setName(e.target.value)} placeholder={t('create.namePlaceholder')} />
        <button type="submit" className={styles.primary} aria-disabled={busy || undefined}>
          {busy ? t('create.creating') : t('create.create')}
        </button>
        {error && (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        )}
      </form>

      <form id="join" className={styles.card} onSubmit={join} aria-labelledby={`${id}-join`}>
        <h2 id={`${id}-join`}>{t('create.joining')}</h2>
        <label htmlFor={`${id}-code`}>{t('create.code')}</label>
        <input
          ref={joinInput}
          id={`${id}-code`}
          value={joinCode}
          onChange={(e) => setJoinCode(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          placeholder="K7M2Q-9XR4T-HB3WZ"
          dir="ltr"
          className={styles.codeInput}
          aria-invalid={joinError ? true : undefined}
        />
        <button type="submit" className={styles.secondary}>
          {t('create.go')}
        </button>
        {joinError && (
          <p role="alert" className={styles.error}>
            {joinError}
          </p>
        )}
      </form>
    </div>
  );
}
