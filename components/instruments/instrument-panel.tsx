'use client';
/**
 * The instrument panel: Run and the run's state, the nodes (state, role, each
 * key's holder and TTL, their faults), the clients (pause, resume, crash),
 * the keys that press them, and the timeline, together. On a wide screen it
 * is a column of its own that stays in view while the page scrolls the
 * editor's side; narrower, its parts follow the editor in the page and the
 * phone strip (instrument-strip.tsx) keeps the faults at hand.
 */
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { ClusterView } from '@/components/cluster/cluster-view';
import { ClientControls } from '@/components/clients/client-controls';
import { useLabReadOnly, useLabStore } from '@/components/lab/lab-provider';
import { TimelineArea } from '@/components/timeline/timeline-area';
import { BreakpointChoice, BreakpointStop } from './breakpoint-control';
import { KEYED_TARGETS } from './instrument-keys';
import styles from './instruments.module.css';

export interface InstrumentPanelProps {
  defaultClients: number;
  /** Run, Stop and the run's progress: first in the panel, so Run is in view with the instruments. */
  toolbar: ReactNode;
  /** The page's layout of the panel (a column of its own, or its parts in the lab's flow). */
  className?: string;
}

/**
 * From this many clients the panel is crowded (lesson 8: five clients beside five nodes): the clients are one line
 * each, a node's Kill/Restart and Pause/Resume one button each, the timeline's lanes shorter, so Run, the nodes, the
 * clients and the timeline still fit 1280×800 together.
 */
export const CROWDED_CLIENTS = 4;

export function InstrumentPanel({ defaultClients, toolbar, className }: InstrumentPanelProps) {
  const t = useTranslations('workspace');
  const hasLab = useLabStore((s) => s.labId !== null);
  // The run's clients while one is on screen (the rows are its clients), else the count chosen for the next run.
  const crowded = useLabStore((s) => s.run.info?.clients ?? defaultClients) >= CROWDED_CLIENTS;
  return (
    <div className={className ? `${styles.panel} ${className}` : styles.panel} data-testid="instrument-panel" data-crowded={crowded || undefined}>
      {toolbar}
      <BreakpointStop />
      {hasLab ? <ClusterView compact crowded={crowded} /> : <p className={styles.muted}>{t('nodesAppear')}</p>}
      {/* Crowded, the keys in short share a line with the clients' pause length, above their rows. */}
      <ClientControls defaultClients={defaultClients} compact dense={crowded} {...(crowded ? { head: <KeyLegend short /> } : {})} />
      {!crowded && <KeyLegend />}
      <div className={styles.timeline}>
        <TimelineArea defaultClients={defaultClients} dense={crowded} />
      </div>
      <BreakpointChoice defaultClients={defaultClients} />
    </div>
  );
}

const kbd = (chunks: ReactNode) => <kbd>{chunks}</kbd>;
// A key combination reads "Shift+1" in every language, not "1+Shift" in Arabic.
const keys = (chunks: ReactNode) => <span dir="ltr">{chunks}</span>;

/** The keys, said where the buttons are; `short`, in a crowded panel: "1–5 nodes · Shift+1–5 clients" (the whole sentence is its title and its screen-reader text). */
export function KeyLegend({ short = false }: { short?: boolean }) {
  const t = useTranslations('workspace.instruments');
  if (useLabReadOnly()) return null;
  return (
    <p className={styles.legend} data-testid="key-legend" title={t('keysNote', { last: KEYED_TARGETS })}>
      {t.rich(short ? 'keysShort' : 'keys', { kbd, keys, last: KEYED_TARGETS })}
      <span className="visually-hidden"> {t('keysNote', { last: KEYED_TARGETS })}</span>
    </p>
  );
}
