'use client';
/** The playground: the tab's own lab, its nodes and what happened to them. */
import { ClusterView } from '@/components/cluster/cluster-view';
import { LabProvider, useLabStore } from '@/components/lab/lab-provider';
import { CommandErrors, LabStatus } from '@/components/lab/lab-status';
import { RecentHistory } from '@/components/lab/recent-history';
import styles from './playground.module.css';

export function Playground() {
  return (
    <LabProvider>
      <PlaygroundBody />
    </LabProvider>
  );
}

function PlaygroundBody() {
  // Without a lab (still starting, or the server is full) there is nothing to show but the status.
  const hasLab = useLabStore((s) => s.labId !== null);
  return (
    <div className={styles.layout}>
      <div className={styles.main}>
        <LabStatus />
        <CommandErrors />
        {hasLab && <ClusterView />}
      </div>
      {hasLab && (
        <aside className={styles.side}>
          <RecentHistory />
        </aside>
      )}
    </div>
  );
}
