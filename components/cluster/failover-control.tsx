'use client';
/**
 * "Fail over" for a replicated lab (Node 1 master, Node 2 replica): promotes
 * the replica, whatever it has received so far. Lesson 4's break is exactly
 * this, and its "Do it yourself" task asks the learner to press it while a
 * client holds the lock. Named as the command is everywhere (refusals.command).
 */
import { useLocale, useMessages } from 'next-intl';
import { useLabClient, useLabReadOnly, useLabStore } from '@/components/lab/lab-provider';
import { faultCommandWords, faultPendingKey } from '@/lib/faults/command-words';
import { render } from '@/lib/words';
import { ControlButton } from './node-controls';
import styles from './cluster.module.css';

export function FailoverControl() {
  const locale = useLocale();
  const catalogue = useMessages();
  const client = useLabClient();
  const readOnly = useLabReadOnly();
  const replicated = useLabStore((s) => s.replication !== null);
  if (!replicated || readOnly) return null;
  const name = render(faultCommandWords('failover', {}), locale, catalogue);
  return (
    <div className={styles.buttons}>
      <ControlButton name={name} pendingKey={faultPendingKey('failover', {})} enabled variant="danger" onPress={() => void client.fault('failover', {})}>
        {name}
      </ControlButton>
    </div>
  );
}
