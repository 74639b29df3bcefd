'use client';
/**
 * The lab's nodes, one card each, in id order. While the time-travel cursor
 * is set, every card shows its node as it was at that moment (state, role,
 * keys and their TTLs), without its fault buttons, which act on the live lab.
 */
import { useTranslations } from 'next-intl';
import { useShallow } from 'zustand/react/shallow';
import { useFormatDuration } from '@/components/lab/use-duration';
import { useLabStore } from '@/components/lab/lab-provider';
import { FailoverControl } from './failover-control';
import { NodeCard } from './node-card';
import { useNodesAtCursor } from './use-nodes-at';
import styles from './cluster.module.css';

/** `compact`: the instrument panel's row of node tiles (node-card.tsx); `crowded`: a crowded panel's (five clients too). */
export function ClusterView({ compact = false, crowded = false }: { compact?: boolean; crowded?: boolean }) {
  const nodeIds = useLabStore(useShallow((s) => s.nodeIds));
  const setCursor = useLabStore((s) => s.actions.setCursor);
  const past = useNodesAtCursor();
  const t = useTranslations('cluster');
  const formatDuration = useFormatDuration();
  return (
    <section aria-labelledby="cluster-title" className={styles.cluster} data-compact={compact || undefined} data-testid="cluster">
      {/* In the panel each tile says its node: the heading is for screen readers. */}
      <h2 id="cluster-title" className={compact ? 'visually-hidden' : styles.sectionTitle}>
        {t('title')}
      </h2>
      {past && nodeIds.length > 0 && (
        <p className={styles.moment} data-testid="nodes-moment">
          <span>
            {t.rich('moment', { at: formatDuration(past.t - past.origin), strong: (chunks) => <strong>{chunks}</strong> })}
          </span>{' '}
          <button type="button" className={styles.momentButton} onClick={() => setCursor(null)}>
            {t('backToNow')}
          </button>
        </p>
      )}
      {nodeIds.length === 0 ? (
        <p className={styles.empty}>{t('empty')}</p>
      ) : (
        <div className={styles.grid}>
          {nodeIds.map((id) => (
            <NodeCard key={id} nodeId={id} compact={compact} crowded={crowded} {...(past?.moments[id] ? { moment: past.moments[id], at: past.t } : {})} />
          ))}
        </div>
      )}
      {/* Faults act on the live lab: not while the cards show a past moment. */}
      {!past && nodeIds.length > 0 && <FailoverControl />}
    </section>
  );
}
