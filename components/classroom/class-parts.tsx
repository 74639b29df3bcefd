'use client';
/** Pieces both classroom pages use: the status line, the join code, and the shared lab itself. */
import { useEffect, useState, type ReactNode } from 'react';
import { ClusterView } from '@/components/cluster/cluster-view';
import { useLabStore } from '@/components/lab/lab-provider';
import { CommandErrors } from '@/components/lab/lab-status';
import { RecentHistory } from '@/components/lab/recent-history';
import { ProblemNotice, StatusLine } from '@/components/status/status-line';
import { Timeline } from '@/components/timeline/timeline';
import { VerdictPanel } from '@/components/verdict/verdict-panel';
import { useClassroom } from './classroom-provider';
import styles from './classroom.module.css';

const STATUS_WORDS = {
  idle: 'Not in the class yet',
  connecting: 'Connecting to the lab server…',
  joining: 'Joining the class…',
  joined: 'In the class',
  reconnecting: 'Reconnecting…',
  ended: 'The class is over',
  failed: 'Could not join the class',
} as const;

export function ClassStatus() {
  const status = useClassroom((s) => s.status);
  const message = useClassroom((s) => s.message);
  const learners = useClassroom((s) => s.roster.filter((e) => e.connected).length);
  const role = useClassroom((s) => s.info?.role ?? null);
  if (status === 'ended' || status === 'failed') {
    return (
      <ProblemNotice title={STATUS_WORDS[status]}>{message && <p>{message}</p>}</ProblemNotice>
    );
  }
  return (
    <StatusLine tone={status === 'joined' ? 'ok' : status === 'reconnecting' ? 'waiting' : 'idle'} busy={status !== 'joined'} data={{ 'data-status': status }}>
      {STATUS_WORDS[status]}
      {status === 'joined' && role === 'instructor' && ` · ${learners} ${learners === 1 ? 'learner' : 'learners'} connected`}
      {status === 'reconnecting' && message ? ` ${message}` : ''}
    </StatusLine>
  );
}

/** The join code, big enough to read from the back of a room, and the link to the learners' page. */
export function JoinCode({ code, link }: { code: string; link: string }) {
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);
  const url = `${origin}${link}`;
  return (
    <section className={styles.joinCode} aria-labelledby="join-code-title">
      <h2 id="join-code-title" className={styles.joinLabel}>
        Join code
      </h2>
      <p className={styles.code} data-testid="join-code" aria-label={`Join code ${code.split('').join(' ')}`}>
        {code}
      </p>
      <p className={styles.joinLink}>
        <a href={link} data-testid="join-link">
          {url || link}
        </a>
      </p>
    </section>
  );
}

/** The shared lab: nodes, verdict, timeline and what happened, through the same components as a personal lab. */
export function SharedLab({ extraTabs, note, emptyVerdict }: { extraTabs?: ReactNode; note?: ReactNode; emptyVerdict: string }) {
  const hasLab = useLabStore((s) => s.labId !== null);
  const clients = useLabStore((s) => s.run.info?.clients ?? (s.clients || 3));
  const demoTitle = useClassroom((s) => s.demo?.title ?? null);
  const seed = useClassroom((s) => s.demo?.seed ?? null);
  return (
    <section className={styles.lab} aria-label="The class's lab">
      <div className={styles.labHead}>
        {note}
        <CommandErrors />
        {demoTitle && (
          <p className={styles.demoLine} data-testid="current-demo">
            Demo: <strong>{demoTitle}</strong> · random seed <code>{seed}</code>
          </p>
        )}
      </div>
      {/* On a projector the nodes lead; on a phone the verdict does (classroom.module.css re-orders them). */}
      <div className={styles.clusterSlot}>
        {hasLab ? <ClusterView /> : <p className={styles.muted}>The class&apos;s nodes appear here once you are in the class.</p>}
      </div>
      <div className={styles.labRow}>
        <VerdictPanel empty={emptyVerdict} />
        <RecentHistory limit={6} />
      </div>
      <Timeline defaultClients={clients} />
      {extraTabs}
    </section>
  );
}
