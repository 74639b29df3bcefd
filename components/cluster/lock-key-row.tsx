'use client';
/**
 * One lock key: its name, its value (the holder's token) and what is left
 * of its TTL, counting down between the server's samples.
 */
import { useTranslations } from 'next-intl';
import type { LockKeyView } from '@/lib/cluster';
import { remainingTtl } from '@/components/lab/lab-state';
import { useFormatDuration } from '@/components/lab/use-duration';
import styles from './cluster.module.css';

export interface LockKeyRowProps {
  lock: LockKeyView;
  peakMs: number | undefined;
  now: number | null;
  /**
   * The instrument panel's tile names the holder — the client (null: the history does not say, so the token) —
   * where the full card shows the token; absent on the full card.
   */
  holder?: number | null;
  /**
   * A crowded panel's tile (five clients beside five nodes, ~4 rem wide): the key, its holder as "Client 3" and the
   * TTL as its bar; "held by …" and the TTL's words are the lines' titles and screen-reader text.
   */
  dense?: boolean;
}

export function LockKeyRow({ lock, peakMs, now, holder, dense = false }: LockKeyRowProps) {
  const t = useTranslations('cluster');
  const formatDuration = useFormatDuration();
  const left = remainingTtl(lock, now);
  const noExpiry = left < 0;
  const full = peakMs !== undefined && peakMs > 0 ? peakMs : Math.max(lock.pttl, 1);
  const fraction = noExpiry ? 1 : Math.min(1, left / full);
  const ttlText = noExpiry ? t('ttl.noExpiry') : left === 0 ? t('ttl.expiring') : t('ttl.left', { duration: formatDuration(left) });

  const bar = (
    <div className={styles.ttlTrack} data-no-expiry={noExpiry || undefined} aria-hidden="true" {...(dense ? { title: ttlText } : {})}>
      <div className={styles.ttlFill} style={{ inlineSize: `${(fraction * 100).toFixed(1)}%` }} />
    </div>
  );
  if (dense && holder !== undefined) {
    const heldBy = holder !== null ? { long: t('heldBy', { client: holder }), short: t('holder', { client: holder }) } : null;
    return (
      <li className={styles.key} data-dense>
        <code className={styles.keyName} dir="ltr" title={lock.key}>
          {lock.key}
        </code>
        <div className={styles.keyValue} title={heldBy?.long ?? lock.value ?? undefined} data-testid="key-holder">
          {heldBy !== null ? (
            <>
              <span className="visually-hidden">{heldBy.long}</span>
              <span aria-hidden="true">{heldBy.short}</span>
            </>
          ) : (
            <code dir="ltr">{lock.value ?? t('notAString')}</code>
          )}
        </div>
        <span className="visually-hidden">{ttlText}</span>
        {bar}
      </li>
    );
  }
  return (
    <li className={styles.key}>
      <div className={styles.keyLine}>
        <code className={styles.keyName} dir="ltr">
          {lock.key}
        </code>
        <span className={styles.ttlText}>{ttlText}</span>
      </div>
      {holder !== undefined ? (
        <div className={styles.keyValue} title={lock.value ?? undefined} data-testid="key-holder">
          {holder !== null ? t('heldBy', { client: holder }) : <code dir="ltr">{lock.value ?? t('notAString')}</code>}
        </div>
      ) : (
        <div className={styles.keyValue} title={lock.value ?? undefined}>
          <span className={styles.keyValueLabel}>{t('value')}</span>{' '}
          <code dir="ltr">{lock.value ?? t('notAString')}</code>
        </div>
      )}
      {bar}
    </li>
  );
}
