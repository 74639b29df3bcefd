'use client';
/**
 * One Redis node as a card: name, state (text + icon), role, port,
 * persistence, a pending delayed restart, what the lab last did to it (a
 * script it stopped, a restart over budget), its lock keys, and its faults.
 * Reads only its own node from the store, so a change on Node 3 does not
 * re-render Node 1. With a `moment` (the time-travel cursor) it shows the
 * node as it was then, and no fault buttons.
 */
import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { useLabReadOnly, useLabStore } from '@/components/lab/lab-provider';
import { useLabClock } from '@/components/lab/use-lab-clock';
import { useFormatDuration } from '@/components/lab/use-duration';
import { NodeControls, RestartOptions } from './node-controls';
import { NodeIntervention } from './node-intervention';
import { persistenceWords, roleWords } from './node-words';
import { StateIcon } from './state-icon';
import { LockKeyRow } from './lock-key-row';
import { keyHolder } from './key-holder';
import type { NodeMoment } from './nodes-at';
import styles from './cluster.module.css';

export interface NodeCardProps {
  nodeId: number;
  /** The node at the time-travel cursor, instead of now. */
  moment?: NodeMoment;
  /** Lab time of `moment`. */
  at?: number;
  /**
   * The instrument panel's tile: state, role, each key's holder and TTL and the four fault buttons
   * at a glance; port, persistence and the restart options under "More".
   */
  compact?: boolean;
  /** A crowded panel's tile (five clients too): Kill/Restart and Pause/Resume each one button, each key in short. */
  crowded?: boolean;
}

export function NodeCard({ nodeId, moment, at, compact = false, crowded = false }: NodeCardProps) {
  const liveNode = useLabStore((s) => s.nodes[nodeId]);
  const livePeaks = useLabStore((s) => s.ttlPeaks[nodeId]);
  const past = moment !== undefined && at !== undefined;
  const node = past ? moment.node : liveNode;
  const peaks = past ? moment.peaks : livePeaks;
  const counting = !past && node !== undefined && (node.restartDueAt !== null || node.keys.some((k) => k.pttl > 0));
  const clock = useLabClock(counting);
  const now = past ? at : clock;
  const readOnly = useLabReadOnly();
  const t = useTranslations('cluster');
  const formatDuration = useFormatDuration();
  // The tile names each key's holder, a client, read from the run's recent history (keyHolder looks back a bounded
  // way). Selected as one string, so the tile re-renders when a holder changes, not with every event of a busy run.
  const holderList = useLabStore((s) => (compact && node ? node.keys.map((k) => keyHolder(s.history, node.id, k.key, k.value) ?? '').join(',') : null));
  const holders = useMemo(() => {
    if (holderList === null || !node) return null;
    const each = holderList.split(',');
    return new Map(node.keys.map((k, i) => [k.key, each[i] ? Number(each[i]) : null]));
  }, [holderList, node]);
  if (!node) return null;

  const titleId = `node-${node.id}-title`;
  const keys = (
    <div className={styles.keys}>
      <h4 className={compact ? 'visually-hidden' : styles.keysTitle}>{t('keys')}</h4>
      {node.keys.length === 0 ? (
        crowded ? (
          // A crowded tile (~4 rem) says it with a mark, the sentence in its title and for screen readers: a sentence
          // there took four lines and pushed the timeline off a 1280×800 screen.
          <p className={styles.empty} title={node.state === 'down' ? t('keysUnknown') : t('noKeys')}>
            <span aria-hidden="true">{node.state === 'down' ? '?' : '—'}</span>
            <span className="visually-hidden">{node.state === 'down' ? t('keysUnknown') : t('noKeys')}</span>
          </p>
        ) : (
          <p className={styles.empty}>{node.state === 'down' ? t('keysUnknown') : t('noKeys')}</p>
        )
      ) : (
        <ul className={styles.keyList}>
          {node.keys.map((lock) => (
            <LockKeyRow key={lock.key} lock={lock} peakMs={peaks?.[lock.key]?.peakMs} now={now} {...(holders ? { holder: holders.get(lock.key) ?? null } : {})} dense={crowded} />
          ))}
        </ul>
      )}
      {node.keysTruncated && <p className={styles.empty}>{t('keysTruncated')}</p>}
    </div>
  );
  const portAndPersistence = (
    <>
      <div>
        <dt>{t('fact.port')}</dt>
        <dd>
          <code>{node.port}</code>
        </dd>
      </div>
      <div>
        <dt>{t('fact.persistence')}</dt>
        <dd>{persistenceWords(t, node.persistence)}</dd>
      </div>
    </>
  );
  const restartDue = node.restartDueAt !== null && (
    <p className={styles.restartDue}>
      {now === null ? t('restartsSoon') : t('restartsIn', { duration: formatDuration(Math.max(0, node.restartDueAt - now)) })}
    </p>
  );
  const clockJumped = node.clockJumpMs > 0 ? t('clockJumped', { duration: formatDuration(node.clockJumpMs) }) : null;
  /** `title`: the whole line, where a crowded tile may cut it short. */
  const role = (title: string | null) => (
    <p className={styles.role} {...(title !== null ? { title: clockJumped ? `${title} · ${clockJumped}` : title } : {})}>
      <span className="visually-hidden">{t('fact.role')}: </span>
      {roleWords(t, node)}
      {clockJumped && <> · {clockJumped}</>}
    </p>
  );
  /** `label`: the summary's word; null, its mark alone. */
  const more = (label: string | null) => (
    <details className={styles.more}>
      <summary aria-label={t('more.name', { node: t('node', { n: node.id }) })} {...(label === null ? { title: t('more.name', { node: t('node', { n: node.id }) }) } : {})}>
        {label}
      </summary>
      <dl className={styles.facts}>{portAndPersistence}</dl>
      {!readOnly && !past && <RestartOptions node={node} enabled={node.state === 'down' && node.restartDueAt === null} pending={node.restartDueAt !== null} />}
    </details>
  );
  if (compact) {
    return (
      <section className={styles.card} data-compact data-state={node.state} data-moment={past || undefined} aria-labelledby={titleId}>
        <header className={styles.cardHeader}>
          <h3 id={titleId} className={styles.cardTitle}>
            {t('node', { n: node.id })}
          </h3>
          <span className={styles.state} data-state={node.state} data-testid="node-state">
            <StateIcon state={node.state} className={styles.stateIcon} />
            {t(`state.${node.state}`)}
          </span>
        </header>
        {crowded ? (
          // Crowded, "More" is the role line's disclosure mark (its name unchanged), not a line of its own: it opens below.
          <div className={styles.roleLine}>
            {role(roleWords(t, node))}
            {more(null)}
          </div>
        ) : (
          role(null)
        )}
        {restartDue}
        <NodeIntervention intervention={node.intervention} />
        {keys}
        {!readOnly && !past && <NodeControls node={node} compact toggles={crowded} />}
        {!crowded && more(t('more.label'))}
      </section>
    );
  }
  return (
    <section className={styles.card} data-state={node.state} data-moment={past || undefined} aria-labelledby={titleId}>
      <header className={styles.cardHeader}>
        <h3 id={titleId} className={styles.cardTitle}>
          {t('node', { n: node.id })}
        </h3>
        <dl className={styles.stateLine}>
          <dt className="visually-hidden">{t('fact.state')}</dt>
          <dd className={styles.state} data-state={node.state} data-testid="node-state">
            <StateIcon state={node.state} className={styles.stateIcon} />
            {t(`state.${node.state}`)}
          </dd>
        </dl>
      </header>

      <dl className={styles.facts}>
        <div>
          <dt>{t('fact.role')}</dt>
          <dd>{roleWords(t, node)}</dd>
        </div>
        {portAndPersistence}
        {node.clockJumpMs > 0 && (
          <div>
            <dt>{t('fact.clock')}</dt>
            <dd>{t('clockJumped', { duration: formatDuration(node.clockJumpMs) })}</dd>
          </div>
        )}
      </dl>

      {restartDue}

      <NodeIntervention intervention={node.intervention} />

      {keys}

      {!readOnly && !past && <NodeControls node={node} />}
    </section>
  );
}
