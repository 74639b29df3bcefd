'use client';
/**
 * /classroom/[code]/instructor: the shared lab with every control, one-click
 * failure demos (replayable by seed), the live roster, "follow me" and "End
 * class". Re-joins after a reload with the token kept in this tab; without
 * one it asks for it.
 */
import { Link } from '@/i18n/navigation';
import { useId, useState, type FormEvent } from 'react';
import { ClientControls } from '@/components/clients/client-controls';
import { LinkGrid } from '@/components/clients/link-grid';
import { useLabClient, useLabStore } from '@/components/lab/lab-provider';
import { Tabs } from '@/components/workspace/tabs';
import { ClassStatus, JoinCode, SharedLab } from './class-parts';
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
  return (
    <main id="main" className={styles.narrowPage}>
      <h1 className={styles.pageTitle}>No such class</h1>
      <p role="alert">
        “{code}” is not a join code: a join code has 15 letters and digits, like <code>K7M2Q-9XR4T-HB3WZ</code>.
      </p>
      <p>
        <Link href="/classroom">Start or join a class</Link>
      </p>
    </main>
  );
}

function ConsoleBody({ code, course }: { code: string; course: CourseLesson[] }) {
  const status = useClassroom((s) => s.status);
  const info = useClassroom((s) => s.info);
  const title = info?.name ?? 'Class';
  return (
    <main id="main" className={styles.page} data-role="instructor">
      <header className={styles.header}>
        <div className={styles.headline}>
          <nav className={styles.crumbs} aria-label="Breadcrumb">
            <Link href="/">Lock Lab</Link> / <Link href="/classroom">Classes</Link>
          </nav>
          <h1 className={styles.pageTitle}>
            {title} <span className={styles.roleTag}>instructor console</span>
          </h1>
          <ClassStatus />
        </div>
        <JoinCode code={code} link={info?.link ?? `/classroom/${code}`} />
      </header>
      {status === 'idle' && <TokenForm code={code} />}
      {status !== 'idle' && (
        <div className={styles.consoleGrid}>
          <div className={styles.mainColumn}>
            <DemoPanel />
            <SharedLab extraTabs={<InstructorTabs />} emptyVerdict="Run a demo to get a verdict." />
          </div>
          <aside className={styles.sideColumn} aria-label="The class">
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
  const clients = useLabStore((s) => s.run.info?.clients ?? (s.clients || 3));
  return (
    <Tabs
      label="Lab controls"
      tabs={[
        {
          id: 'clients',
          label: 'Clients & links',
          panel: (
            <div className={styles.clientsTab}>
              <ClientControls defaultClients={clients} idleHint="Run a demo to pause or crash its clients while it runs." />
              <LinkGrid clients={clients} />
            </div>
          ),
        },
        { id: 'cluster', label: 'Cluster', panel: <ClusterActions /> },
      ]}
    />
  );
}

/** Lab-wide faults that are not on a node card. */
function ClusterActions() {
  const lab = useLabClient();
  const replicated = useLabStore((s) => s.topology?.kind === 'replicated');
  const held = useLabStore((s) => s.replication?.held ?? false);
  if (!replicated) return <p className={styles.muted}>Five independent masters: use the node cards and the link grid. The failover demo switches to a master and its replica.</p>;
  return (
    <div className={styles.row}>
      <button type="button" className={styles.secondary} onClick={() => void (held ? lab.fault('replication-release', {}) : lab.fault('replication-hold', {}))}>
        {held ? 'Release replication' : 'Hold replication'}
      </button>
      <button type="button" className={styles.danger} onClick={() => void lab.fault('failover', {})}>
        Fail over
      </button>
    </div>
  );
}

function TokenForm({ code }: { code: string }) {
  const client = useClassroomClient();
  const message = useClassroom((s) => s.message);
  const id = useId();
  const [token, setToken] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim()) client.join({ role: 'instructor', code, token: token.trim() });
  };
  return (
    <form className={styles.card} onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Open the console</h2>
      <p>This tab does not have the instructor token yet.</p>
      <label htmlFor={`${id}-token`}>Instructor token</label>
      <input id={`${id}-token`} type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} required />
      <button type="submit" className={styles.primary}>
        Open the console
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
  const client = useClassroomClient();
  const status = useClassroom((s) => s.status);
  const [asking, setAsking] = useState(false);
  if (status === 'ended') return null;
  return (
    <section className={styles.card} aria-labelledby="end-class-title">
      <h2 id="end-class-title" className={styles.cardTitle}>
        End the class
      </h2>
      {asking ? (
        <>
          <p>Every learner is told the class is over and the class&apos;s lab is shut down.</p>
          <div className={styles.row}>
            <button type="button" className={styles.danger} onClick={() => void client.end().then(() => setAsking(false))}>
              End it now
            </button>
            <button type="button" className={styles.secondary} onClick={() => setAsking(false)}>
              Cancel
            </button>
          </div>
        </>
      ) : (
        <button type="button" className={styles.danger} onClick={() => setAsking(true)}>
          End class
        </button>
      )}
    </section>
  );
}
