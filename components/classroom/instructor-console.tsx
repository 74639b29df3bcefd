'use client';
/**
 * /classroom/[code]/instructor: the shared lab with every control, one-click
 * failure demos (replayable by seed), the live roster, "follow me" and "End
 * class". Re-joins after a reload with the token kept in this tab; without
 * one it asks for it.
 */
import { Link } from '@/i18n/navigation';
import { useTranslations } from 'next-intl';
import { useId, useState, type FormEvent } from 'react';
import { ClientControls } from '@/components/clients/client-controls';
import { LinkGrid } from '@/components/clients/link-grid';
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { Tabs } from '@/components/workspace/tabs';
import { ClassStatus, JoinCode, SharedLab, useClassMessage } from './class-parts';
import { useClassroom, useClassroomClient, ClassroomLabProvider } from './classroom-provider';
import { normalizeCode, type CourseLesson } from './classroom-state';
import { DemoPanel } from './demo-panel';
import { FollowPanel } from './follow-panel';
import { Roster } from './roster';
import styles from './classroom.module.css';

export function InstructorConsole({ code, course }: { code: string; course: CourseLesson[] }) {
  const canonical = normalizeCode(code);
  if (!canonical) return <BadCode code={code} />;
  return (
    <ClassroomLabProvider code={canonical} role="instructor">
      <ConsoleBody code={canonical} course={course} />
    </ClassroomLabProvider>
  );
}

export function BadCode({ code }: { code: string }) {
  const t = useTranslations('classroom');
  return (
    <main id="main" className={styles.narrowPage}>
      <h1 className={styles.pageTitle}>{t('console.noSuchClass')}</h1>
      <p role="alert">{t.rich('console.notACode', { value: code, code: (c) => <code>{c}</code> })}</p>
      <p>
        <Link href="/classroom">{t('console.startOrJoin')}</Link>
      </p>
    </main>
  );
}

function ConsoleBody({ code, course }: { code: string; course: CourseLesson[] }) {
  const status = useClassroom((s) => s.status);
  const t = useTranslations('classroom');
  const common = useTranslations('common');
  const info = useClassroom((s) => s.info);
  const title = info?.name ?? t('console.class');
  return (
    <main id="main" className={styles.page} data-role="instructor">
      <header className={styles.header}>
        <div className={styles.headline}>
          <nav className={styles.crumbs} aria-label={common('breadcrumb')}>
            <Link href="/">{common('home')}</Link> / <Link href="/classroom">{t('console.classes')}</Link>
          </nav>
          <h1 className={styles.pageTitle}>
            {title} <span className={styles.roleTag}>{t('console.role')}</span>
          </h1>
          <ClassStatus />
        </div>
        <JoinCode code={code} link={info?.link ?? `/classroom/${code}`} />
      </header>
      {status === 'idle' && <TokenForm code={code} />}
      {status !== 'idle' && (
        <div className={styles.consoleGrid}>
          <div className={styles.mainColumn}>
            <DemoPanel course={course} />
            <SharedLab extraTabs={<InstructorTabs />} emptyVerdict={t('console.emptyVerdict')} course={course} />
          </div>
          <aside className={styles.sideColumn} aria-label={t('console.theClass')}>
            <Roster course={course} />
            <FollowPanel course={course} />
            <EndClass />
          </aside>
        </div>
      )}
    </main>
  );
}

function InstructorTabs() {
  const t = useTranslations('classroom');
  const clients = useLabStore((s) => s.run.info?.clients ?? (s.clients || 3));
  return (
    <Tabs
      label={t('console.controls')}
      tabs={[
        {
          id: 'clients',
          label: t('console.clientsTab'),
          panel: (
            <div className={styles.clientsTab}>
              <ClientControls defaultClients={clients} idleHint={t('console.idleHint')} />
              <LinkGrid clients={clients} />
            </div>
          ),
        },
        { id: 'cluster', label: t('console.clusterTab'), panel: <ClusterActions /> },
      ]}
    />
  );
}

/** Lab-wide faults that are not on a node card. */
function ClusterActions() {
  const t = useTranslations('classroom');
  const lab = useLabClient();
  const replicated = useLabStore((s) => s.topology?.kind === 'replicated');
  const held = useLabStore((s) => s.replication?.held ?? false);
  if (!replicated) return <p className={styles.muted}>{t('console.independent')}</p>;
  return (
    <div className={styles.row}>
      <button type="button" className={styles.secondary} onClick={() => void (held ? lab.fault('replication-release', {}) : lab.fault('replication-hold', {}))}>
        {held ? t('console.release') : t('console.hold')}
      </button>
      <button type="button" className={styles.danger} onClick={() => void lab.fault('failover', {})}>
        {t('console.failover')}
      </button>
    </div>
  );
}

function TokenForm({ code }: { code: string }) {
  const t = useTranslations('classroom');
  const client = useClassroomClient();
  const message = useClassMessage();
  const id = useId();
  const [token, setToken] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim()) client.join({ role: 'instructor', code, token: token.trim() });
  };
  return (
    <form className={styles.card} onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('console.openTitle')}</h2>
      <p>{t('console.noToken')}</p>
      <label htmlFor={`${id}-token`}>{t('console.token')}</label>
      <input id={`${id}-token`} type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} required />
      <button type="submit" className={styles.primary}>
        {t('console.open')}
      </button>
      {message && (
        <p role="alert" className={styles.error}>
          {message}
        </p>
      )}
    </form>
  );
}

function EndClass() {
  const t = useTranslations('classroom');
  const client = useClassroomClient();
  const status = useClassroom((s) => s.status);
  const [asking, setAsking] = useState(false);
  if (status === 'ended') return null;
  return (
    <section className={styles.card} aria-labelledby="end-class-title">
      <h2 id="end-class-title" className={styles.cardTitle}>
        {t('console.endTitle')}
      </h2>
      {asking ? (
        <>
          <p>{t('console.endWarning')}</p>
          <div className={styles.row}>
            <button type="button" className={styles.danger} onClick={() => void client.end().then(() => setAsking(false))}>
              {t('console.endNow')}
            </button>
            <button type="button" className={styles.secondary} onClick={() => setAsking(false)}>
              {t('console.cancel')}
            </button>
          </div>
        </>
      ) : (
        <button type="button" className={styles.danger} onClick={() => setAsking(true)}>
          {t('console.end')}
        </button>
      )}
    </section>
  );
}
