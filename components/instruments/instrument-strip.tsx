'use client';
/**
 * The phone's instrument strip: a compact bar held at the bottom of the
 * screen while the lab is on it, one button per node (kill when up, restart
 * when down) and per client (pause while it runs, resume when paused), each
 * with its state, so a fault lands inside a 3 s run without scrolling to the
 * cards. Shown only where the instrument panel is not a column of its own.
 * Its buttons say their key too ("Kill Node 1 (key 1)"): the cards' own
 * buttons keep their names.
 */
import { useTranslations } from 'next-intl';
import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { faultPendingKey } from '@/lib/faults/command-words';
import { runActive, runClientStatuses } from '@/components/clients/run-client-statuses';
import { useLabClient, useLabReadOnly, useLabStore } from '@/components/lab/lab-provider';
import { clientShortcut, clientToggle, nodeShortcut, nodeToggle } from './instrument-keys';
import styles from './instruments.module.css';

/**
 * `className`: the page hides the strip where the panel is a column of its own; `hiddenWhen`, that media query, so
 * a hidden strip does not fold the history for nothing.
 */
export function InstrumentStrip({ defaultClients, className, hiddenWhen }: { defaultClients: number; className?: string; hiddenWhen?: string }) {
  const hidden = useMediaQuery(hiddenWhen);
  return hidden ? null : <Strip defaultClients={defaultClients} {...(className ? { className } : {})} />;
}

function useMediaQuery(query: string | undefined): boolean {
  const [matches, setMatches] = useState(false);
  useEffect(() => {
    if (!query) return;
    const media = window.matchMedia(query);
    setMatches(media.matches);
    const onChange = () => setMatches(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, [query]);
  return matches;
}

function Strip({ defaultClients, className }: { defaultClients: number; className?: string }) {
  const t = useTranslations('workspace.instruments.strip');
  const nodeIds = useLabStore(useShallow((s) => s.nodeIds));
  const history = useLabStore((s) => s.history);
  const info = useLabStore((s) => s.run.info);
  const until = useLabStore((s) => s.run.shownUntilT);
  const phase = useLabStore((s) => s.run.phase);
  const statuses = useMemo(() => runClientStatuses({ history, run: { info, shownUntilT: until, phase } }, defaultClients), [history, info, until, phase, defaultClients]);
  if (useLabReadOnly() || nodeIds.length === 0) return null;
  return (
    <div className={className ? `${styles.strip} ${className}` : styles.strip} role="group" aria-label={t('label')} data-testid="instrument-strip">
      <div className={styles.stripRow}>
        <span className={styles.stripTitle}>{t('nodes')}</span>
        {nodeIds.map((id) => (
          <NodeToggle key={id} node={id} />
        ))}
      </div>
      <div className={styles.stripRow}>
        <span className={styles.stripTitle}>{t('clients')}</span>
        {statuses.map((status, i) => (
          <ClientToggle key={i + 1} client={i + 1} status={status} active={runActive(phase)} />
        ))}
      </div>
    </div>
  );
}

function NodeToggle({ node }: { node: number }) {
  const t = useTranslations('workspace.instruments.strip');
  const c = useTranslations('cluster');
  const lab = useLabClient();
  const view = useLabStore((s) => s.nodes[node]);
  const op = nodeToggle(view);
  const pending = useLabStore((s) => (op ? faultPendingKey(op, { node }) in s.pending : false));
  if (!view) return null;
  const label = c('node', { n: node });
  const action = op === 'node-restart' || (op === null && view.state === 'down') ? 'restart' : 'kill';
  const usable = op !== null && !pending;
  return (
    <button
      type="button"
      className={styles.stripButton}
      data-state={view.state}
      aria-label={t('withKey', { name: c(`${action}.name`, { node: label }), key: nodeShortcut(node) ?? '' })}
      aria-keyshortcuts={nodeShortcut(node)}
      aria-disabled={usable ? undefined : true}
      aria-busy={pending || undefined}
      onClick={() => {
        if (usable && op) void lab.fault(op, { node });
      }}
    >
      <span className={styles.stripKey} aria-hidden="true">
        {node}
      </span>
      <span className={styles.stripState}>{c(`state.${view.state}`)}</span>
      <span className={styles.stripAction}>{c(`${action}.label`)}</span>
    </button>
  );
}

function ClientToggle({ client, status, active }: { client: number; status: ReturnType<typeof runClientStatuses>[number]; active: boolean }) {
  const t = useTranslations('workspace.instruments.strip');
  const c = useTranslations('clients');
  const lab = useLabClient();
  const op = active ? clientToggle(status) : null;
  const pending = useLabStore((s) => (op ? faultPendingKey(op, { client }) in s.pending : false));
  const label = c('client', { n: client });
  const action = status === 'paused' || status === 'held' ? 'resume' : 'pause';
  const usable = op !== null && !pending;
  return (
    <button
      type="button"
      className={styles.stripButton}
      data-status={status}
      aria-label={t('withKey', { name: c(`${action}.name`, { client: label }), key: clientShortcut(client) ?? '' })}
      aria-keyshortcuts={clientShortcut(client)}
      aria-disabled={usable ? undefined : true}
      aria-busy={pending || undefined}
      onClick={() => {
        if (usable && op) void lab.fault(op, { client });
      }}
    >
      <span className={styles.stripKey} aria-hidden="true">
        ⇧{client}
      </span>
      <span className={styles.stripState}>{c(`status.${status}`)}</span>
      <span className={styles.stripAction}>{c(`${action}.label`)}</span>
    </button>
  );
}
