'use client';
/**
 * One lock key: its name, its value (the holder's token) and what is left
 * of its TTL, counting down between the server's samples.
 */
import type { LockKeyView } from '@/lib/cluster';
import { remainingTtl } from '@/components/lab/lab-state';
import { formatDuration } from '@/lib/durations';
import styles from './cluster.module.css';

export function LockKeyRow({ lock, peakMs, now }: { lock: LockKeyView; peakMs: number | undefined; now: number | null }) {
  const left = remainingTtl(lock, now);
  const noExpiry = left < 0;
  const full = peakMs !== undefined && peakMs > 0 ? peakMs : Math.max(lock.pttl, 1);
  const fraction = noExpiry ? 1 : Math.min(1, left / full);
  const ttlText = noExpiry ? 'no expiry' : left === 0 ? 'expiring' : `${formatDuration(left)} left`;

  return (
    <li className={styles.key}>
      <div className={styles.keyLine}>
        <code className={styles.keyName}>{lock.key}</code>
        <span className={styles.ttlText}>{ttlText}</span>
      </div>
      <div className={styles.keyValue} title={lock.value ?? undefined}>
        <span className={styles.keyValueLabel}>value</span>{' '}
        <code>{lock.value ?? '(not a string)'}</code>
      </div>
      <div className={styles.ttlTrack} data-no-expiry={noExpiry || undefined} aria-hidden="true">
        <div className={styles.ttlFill} style={{ inlineSize: `${(fraction * 100).toFixed(1)}%` }} />
      </div>
    </li>
  );
}
