'use client';
/** The lab's nodes, one card each, in id order. */
import { useShallow } from 'zustand/react/shallow';
import { useLabStore } from '@/components/lab/lab-provider';
import { NodeCard } from './node-card';
import styles from './cluster.module.css';

export function ClusterView() {
  const nodeIds = useLabStore(useShallow((s) => s.nodeIds));
  return (
    <section aria-labelledby="cluster-title" className={styles.cluster}>
      <h2 id="cluster-title" className={styles.sectionTitle}>
        Nodes
      </h2>
      {nodeIds.length === 0 ? (
        <p className={styles.empty}>The nodes appear here once your lab is running.</p>
      ) : (
        <div className={styles.grid}>
          {nodeIds.map((id) => (
            <NodeCard key={id} nodeId={id} />
          ))}
        </div>
      )}
    </section>
  );
}
