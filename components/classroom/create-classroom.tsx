'use client';
/**
 * Starting a class: the instructor gives the instructor token (from the
 * server's log or LOCKLAB_INSTRUCTOR_TOKEN) and a name; the class is created
 * on a short-lived connection and the console opens, which joins it as its
 * instructor with the token kept in this tab. Learners can type a join code
 * here too: the index's "Join a class" lands on `#join`, with the code field focused.
 */
import { useRouter } from '@/i18n/navigation';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { io } from 'socket.io-client';
import type { LabSocket } from '@/components/lab/socket-client';
import { normalizeCode, saveCredentials, tabStorage } from './classroom-state';
import styles from './classroom.module.css';

export function CreateClassroom() {
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
    socket.on('connect_error', (e) => done(`Cannot reach the lab server: ${e.message}`));
    socket.on('connect', () => {
      const input = { token: token.trim(), ...(name.trim() ? { name: name.trim() } : {}) };
      socket.timeout(30_000).emit('classroom:create', input, (err, result) => {
        if (err) return done('The lab server did not answer in time (it starts five redis-server processes for the class).');
        if (!result.ok) return done(result.error.code === 'forbidden' ? 'That is not the instructor token. It is in the server log, or in LOCKLAB_INSTRUCTOR_TOKEN.' : result.error.message);
        saveCredentials(tabStorage(), { role: 'instructor', code: result.value.code, token: token.trim() });
        done(null);
        router.push(`/classroom/${result.value.code}/instructor`);
      });
    });
    socket.connect();
  };

  const join = (event: FormEvent) => {
    event.preventDefault();
    const code = normalizeCode(joinCode);
    if (!code) {
      setJoinError('A join code has 15 letters and digits, like K7M2Q-9XR4T-HB3WZ.');
      return;
    }
    router.push(`/classroom/${code}`);
  };

  return (
    <div className={styles.startGrid}>
      <form className={styles.card} onSubmit={create} aria-labelledby={`${id}-create`}>
        <h2 id={`${id}-create`}>I teach</h2>
        <label htmlFor={`${id}-token`}>Instructor token</label>
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
          Printed once in the lab server&apos;s log at start, or the value of <code>LOCKLAB_INSTRUCTOR_TOKEN</code>.
        </p>
        <label htmlFor={`${id}-name`}>Class name (optional)</label>
        <input id={`${id}-name`} value={name} maxLength={80} onChange={(e) => setName(e.target.value)} placeholder="Distributed locks 101" />
        <button type="submit" className={styles.primary} aria-disabled={busy || undefined}>
          {busy ? 'Creating the class…' : 'Create class'}
        </button>
        {error && (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        )}
      </form>

      <form id="join" className={styles.card} onSubmit={join} aria-labelledby={`${id}-join`}>
        <h2 id={`${id}-join`}>I am joining a class</h2>
        <label htmlFor={`${id}-code`}>Join code</label>
        <input
          ref={joinInput}
          id={`${id}-code`}
          value={joinCode}
          onChange={(e) => setJoinCode(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          placeholder="K7M2Q-9XR4T-HB3WZ"
          className={styles.codeInput}
          aria-invalid={joinError ? true : undefined}
        />
        <button type="submit" className={styles.secondary}>
          Go to the class
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
