'use client';
/**
 * Starting a class: the instructor gives the instructor token (from the
 * server's log or LOCKLAB_INSTRUCTOR_TOKEN) and a name; `createClass` makes
 * the class and the console opens, which joins it as its instructor with
 * the token kept in this tab. Learners can type a join code
 * here too: the index's "Join a class" lands on `#join`, with the code field focused.
 */
import { useTranslations } from 'next-intl';
import { useRouter } from '@/i18n/navigation';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { normalizeCode, tabStorage } from './classroom-state';
import { createClass } from './create-class';
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
    // A class without a name is named in the instructor's language (the server's own default is English).
    const input = { token: token.trim(), name: name.trim() || t('create.defaultName') };
    void createClass(input, tabStorage()).then((answer) => {
      if (answer.ok) return router.push(`/classroom/${answer.code}/instructor`);
      setBusy(false);
      if (answer.reason === 'unreachable') setError(t('create.unreachable', { detail: answer.detail }));
      else if (answer.reason === 'slow') setError(t('create.slow'));
      else if (answer.reason === 'forbidden') setError(t('create.forbidden'));
      else setError(serverText(answer.error));
    }, (e: unknown) => {
      setBusy(false);
      setError(t('create.unreachable', { detail: e instanceof Error ? e.message : String(e) }));
    });
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
