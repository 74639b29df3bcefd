/**
 * The one-line status with a dot (connected, coming back, or neither) and
 * the alert box for a state the learner has to act on. The lab and the
 * classroom pages both use them, so the two look and read alike.
 */
import type { ReactNode } from 'react';
import styles from './status.module.css';

/** ok: connected and working; waiting: reconnecting; idle: anything in between. */
export type StatusTone = 'ok' | 'waiting' | 'idle';

type DataAttributes = { [name: `data-${string}`]: string };

export function StatusLine({ tone, busy, data, children }: { tone: StatusTone; busy: boolean; data?: DataAttributes; children: ReactNode }) {
  return (
    <p className={styles.status} role="status" data-tone={tone} aria-busy={busy || undefined} {...data}>
      <span className={styles.dot} aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}

export function ProblemNotice({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className={styles.problem} role="alert">
      <p className={styles.problemTitle}>{title}</p>
      {children}
    </div>
  );
}
