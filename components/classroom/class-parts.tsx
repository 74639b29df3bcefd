'use client';
/** Pieces both classroom pages use: the status line, the join code, and the shared lab itself. */
import { useFormatter, useTranslations } from 'next-intl';
import { useEffect, useState, type ReactNode } from 'react';
import { ClusterView } from '@/components/cluster/cluster-view';
import { useLabStore } from '@/components/lab/lab-provider';
import { CommandErrors } from '@/components/lab/lab-status';
import { RecentHistory } from '@/components/lab/recent-history';
import { ProblemNotice, StatusLine } from '@/components/status/status-line';
import { Timeline } from '@/components/timeline/timeline';
import { useCheckerText } from '@/components/verdict/checker-text';
import { VerdictPanel } from '@/components/verdict/verdict-panel';
import { useClassroom } from './classroom-provider';
import type { CourseLesson } from './classroom-state';
import { useDemoWords } from './demo-words';
import styles from './classroom.module.css';

/** The status's message in the page's language: the tab's own note worded here, the server's from its words (or as it came). */
export function useClassMessage(): string | null {
  const t = useTranslations('classroom');
  const text = useCheckerText();
  const english = useClassroom((s) => s.message);
  const words = useClassroom((s) => s.messageWords);
  const message = english === null ? null : text({ message: english, words: words ?? undefined });
  const note = useClassroom((s) => s.note);
  if (note === 'lost' || note === 'timeout') return t(`note.${note}`);
  if (note === 'refused' || note === 'closed') return t(`note.${note}`, { detail: message ?? '' });
  return message;
}

export function ClassStatus() {
  const t = useTranslations('classroom');
  const status = useClassroom((s) => s.status);
  const message = useClassMessage();
  const learners = useClassroom((s) => s.roster.filter((e) => e.connected).length);
  const role = useClassroom((s) => s.info?.role ?? null);
  if (status === 'ended' || status === 'failed' || status === 'removed') {
    return (
      <ProblemNotice title={t(`status.${status}`)}>{message && <p>{message}</p>}</ProblemNotice>
    );
  }
  return (
    <StatusLine tone={status === 'joined' ? 'ok' : status === 'reconnecting' ? 'waiting' : 'idle'} busy={status !== 'joined'} data={{ 'data-status': status }}>
      {t(`status.${status}`)}
      {status === 'joined' && role === 'instructor' && t('status.learnersConnected', { n: learners })}
      {status === 'reconnecting' && message ? ` ${message}` : ''}
    </StatusLine>
  );
}

/** How long "the instructor is back" stays up: long enough to be read, then it gives the space back. */
const BACK_NOTICE_MS = 15_000;

/** For learners: the instructor left (and when the class ends unless they come back), or is back. */
export function InstructorNotice() {
  const t = useTranslations('classroom');
  const format = useFormatter();
  const presence = useClassroom((s) => s.instructor);
  const [, setTick] = useState(0);
  const [backShown, setBackShown] = useState(true);
  // Re-render once the end time passes (the words change), and hide "back" after a while.
  useEffect(() => {
    if (presence.kind === 'away') {
      const timer = window.setTimeout(() => setTick((n) => n + 1), Math.max(0, presence.endsAt - Date.now()) + 50);
      return () => window.clearTimeout(timer);
    }
    if (presence.kind === 'back') {
      setBackShown(true);
      const timer = window.setTimeout(() => setBackShown(false), BACK_NOTICE_MS);
      return () => window.clearTimeout(timer);
    }
  }, [presence]);
  if (presence.kind === 'here' || (presence.kind === 'back' && !backShown)) return null;
  const text =
    presence.kind === 'back'
      ? t('instructor.back')
      : presence.endsAt > Date.now()
        ? t('instructor.away', { time: format.dateTime(new Date(presence.endsAt), { hour: 'numeric', minute: '2-digit' }) })
        : t('instructor.awayEnding');
  return (
    <p className={styles.instructorNotice} role="status" data-testid="instructor-notice" data-presence={presence.kind}>
      {text}
    </p>
  );
}

/** The join code, big enough to read from the back of a room, and the link to the learners' page. */
export function JoinCode({ code, link }: { code: string; link: string }) {
  const t = useTranslations('classroom');
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);
  const url = `${origin}${link}`;
  return (
    <section className={styles.joinCode} aria-labelledby="join-code-title">
      <h2 id="join-code-title" className={styles.joinLabel}>
        {t('joinCode.title')}
      </h2>
      {/* The code is Latin letters and digits, read left to right in every language. */}
      <p className={styles.code} data-testid="join-code" dir="ltr" aria-label={t('joinCode.label', { spelled: code.split('').join(' ') })}>
        {code}
      </p>
      <p className={styles.joinLink}>
        <a href={link} data-testid="join-link" dir="ltr">
          {url || link}
        </a>
      </p>
    </section>
  );
}

/** The shared lab: nodes, verdict, timeline and what happened, through the same components as a personal lab. */
export function SharedLab({ extraTabs, note, emptyVerdict, course = [] }: { extraTabs?: ReactNode; note?: ReactNode; emptyVerdict: string; course?: CourseLesson[] }) {
  const t = useTranslations('classroom');
  const hasLab = useLabStore((s) => s.labId !== null);
  const clients = useLabStore((s) => s.run.info?.clients ?? (s.clients || 3));
  const demoWords = useDemoWords(course);
  const demo = useClassroom((s) => s.demo);
  const demoTitle = demo ? demoWords.started(demo) : null;
  const seed = useClassroom((s) => s.demo?.seed ?? null);
  return (
    <section className={styles.lab} aria-label={t('lab.label')}>
      <div className={styles.labHead}>
        {note}
        <CommandErrors />
        {demoTitle && (
          <p className={styles.demoLine} data-testid="current-demo">
            {t.rich('lab.demo', { strong: (c) => <strong>{c}</strong>, code: (c) => <code>{c}</code>, title: demoTitle, seed: seed ?? '' })}
          </p>
        )}
      </div>
      {/* On a projector the nodes lead; on a phone the verdict does (classroom.module.css re-orders them). */}
      <div className={styles.clusterSlot}>
        {hasLab ? <ClusterView /> : <p className={styles.muted}>{t('lab.nodesLater')}</p>}
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
