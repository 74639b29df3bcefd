'use client';
/**
 * The lab's nodes, one card each, in id order. While the time-travel cursor
 * is set, every card shows its node as it was at that moment (state, role,
 * keys and their TTLs), without its fault buttons, which act on the live lab.
 */
import { useShallow } from 'zustand/react/shallow';
import { formatDuration } from '@/lib/durations';
import { useLabStore } from '@/components/lab/lab-provider';
import { NodeCard } from './node-card';
import { useNodesAtCursor } from './use-nodes-at';
import styles from './cluster.module.css';

export function ClusterView() {
  const nodeIds = useLabStore(useShallow((s) => s.nodeIds));
  const setCursor = useLabStore((s) => s.actions.setCursor);
  const past = useNodesAtCursor();
  return (
    <section aria-labelledby="cluster-title" className={styles.cluster}>
      <h2 id="cluster-title" className={styles.sectionTitle}>
        Nodes
      </h2>
      {past && nodeIds.length > 0 && (
        <p className={styles.moment} data-testid="nodes-moment">
          <span>
            As they were at <strong>{formatDuration(past.t - past.origin)}</strong> (time travel): their state and keys then, as far as the history tells.
          </span>{' '}
          <button type="button" className={styles.momentButton} onClick={() => setCursor(null)}>
            Back to now
          </button>
        </p>
      )}
      {nodeIds.length === 0 ? (
        <p className={styles.empty}>The nodes appear here once your lab is running.</p>
      ) : (
        <div className={styles.grid}>
          {nodeIds.map((id) => (
            <NodeCard key={id} nodeId={id} {...(past?.moments[id] ? { moment: past.moments[id], at: past.t } : {})} />
          ))}
        </div>
      )}
    </section>
  );
}
