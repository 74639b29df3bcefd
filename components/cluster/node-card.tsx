'use client';
/**
 * One Redis node as a card: name, state (text + icon), role, port,
 * persistence, a pending delayed restart, what the lab last did to it (a
 * script it stopped, a restart over budget), its lock keys, and its faults.
 * Reads only its own node from the store, so a change on Node 3 does not
 * re-render Node 1. With a `moment` (the time-travel cursor) it shows the
 * node as it was then, and no fault buttons.
 */
import { useLabReadOnly, useLabStore } from '@/components/lab/lab-provider';
import { useLabClock } from '@/components/lab/use-lab-clock';
import { formatDuration } from '@/lib/durations';
import { NodeControls } from './node-controls';
import { NodeIntervention } from './node-intervention';
import { PERSISTENCE_WORDS, roleWords } from './node-words';
import { StateIcon } from './state-icon';
import { LockKeyRow } from './lock-key-row';
import type { NodeMoment } from './nodes-at';
import styles from './cluster.module.css';

export interface NodeCardProps {
  nodeId: number;
  /** The node at the time-travel cursor, instead of now. */
  moment?: NodeMoment;
  /** Lab time of `moment`. */
  at?: number;
}

export function NodeCard({ nodeId, moment, at }: NodeCardProps) {
  const liveNode = useLabStore((s) => s.nodes[nodeId]);
  const livePeaks = useLabStore((s) => s.ttlPeaks[nodeId]);
  const past = moment !== undefined && at !== undefined;
  const node = past ? moment.node : liveNode;
  const peaks = past ? moment.peaks : livePeaks;
  const counting = !past && node !== undefined && (node.restartDueAt !== null || node.keys.some((k) => k.pttl > 0));
  const clock = useLabClock(counting);
  const now = past ? at : clock;
  const readOnly = useLabReadOnly();
  if (!node) return null;

  const titleId = `node-${node.id}-title`;
  return (
    <section className={styles.card} data-state={node.state} data-moment={past || undefined} aria-labelledby={titleId}>
      <header className={styles.cardHeader}>
        <h3 id={titleId} className={styles.cardTitle}>
          {node.label}
        </h3>
        <dl className={styles.stateLine}>
          <dt className="visually-hidden">State</dt>
          <dd className={styles.state} data-state={node.state} data-testid="node-state">
            <StateIcon state={node.state} className={styles.stateIcon} />
            {node.state}
          </dd>
        </dl>
      </header>

      <dl className={styles.facts}>
        <div>
          <dt>Role</dt>
          <dd>{roleWords(node)}</dd>
        </div>
        <div>
          <dt>Port</dt>
          <dd>
            <code>{node.port}</code>
          </dd>
        </div>
        <div>
          <dt>Persistence</dt>
          <dd>{PERSISTENCE_WORDS[node.persistence]}</dd>
        </div>
        {node.clockJumpMs > 0 && (
          <div>
            <dt>Clock</dt>
            <dd>jumped {formatDuration(node.clockJumpMs)} ahead (simulated)</dd>
          </div>
        )}
      </dl>

      {node.restartDueAt !== null && (
        <p className={styles.restartDue}>
          Restarts {now === null ? 'soon' : `in ${formatDuration(Math.max(0, node.restartDueAt - now))}`}
        </p>
      )}

      <NodeIntervention intervention={node.intervention} />

      <div className={styles.keys}>
        <h4 className={styles.keysTitle}>Keys</h4>
        {node.keys.length === 0 ? (
          <p className={styles.empty}>{node.state === 'down' ? 'Unknown while the node is down.' : 'No keys.'}</p>
        ) : (
          <ul className={styles.keyList}>
            {node.keys.map((lock) => (
              <LockKeyRow key={lock.key} lock={lock} peakMs={peaks?.[lock.key]?.peakMs} now={now} />
            ))}
          </ul>
        )}
        {node.keysTruncated && <p className={styles.empty}>More keys exist; only the first ones are shown.</p>}
      </div>

      {!readOnly && !past && <NodeControls node={node} />}
    </section>
  );
}
