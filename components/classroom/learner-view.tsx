'use client';
/**
 * /classroom/[code]: a learner gives a name and watches the class's lab live
 * (nodes, verdict, timeline) while the instructor drives it; this browser
 * reports the learner's course progress to the room, and "follow me" shows
 * a banner (or moves the tab, if the learner opted in).
 */
import { Link } from '@/i18n/navigation';
import { useRouter } from '@/i18n/navigation';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ClassroomProgress } from '@/lib/classroom';
import { useProgress } from '@/components/progress/progress-provider';
import { ClassStatus, SharedLab } from './class-parts';
import { ClassroomLabProvider, useClassroom, useClassroomClient, useClassroomStorage } from './classroom-provider';
import { AUTO_FOLLOW_KEY, followHref, normalizeCode, progressReport, sameReport, type CourseLesson } from './classroom-state';
import { BadCode } from './instructor-console';
import styles from './classroom.module.css';

export function LearnerView({ code, course }: { code: string; course: CourseLesson[] }) {
  const canonical = normalizeCode(code);
  if (!canonical) return <BadCode code={code} />;
  return (
    <ClassroomLabProvider code={canonical} role="learner">
      <LearnerBody code={canonical} course={course} />
    </ClassroomLabProvider>
  );
}

function LearnerBody({ code, course }: { code: string; course: CourseLesson[] }) {
  const status = useClassroom((s) => s.status);
  const name = useClassroom((s) => s.info?.name ?? null);
  return (
    <main id="main" className={styles.page} data-role="learner">
      <header className={styles.header}>
        <div className={styles.headline}>
          <nav className={styles.crumbs} aria-label="Breadcrumb">
            <Link href="/">Lock Lab</Link>
          </nav>
          <h1 className={styles.pageTitle}>{name ?? 'Class'}</h1>
          <ClassStatus />
        </div>
        <p className={styles.smallCode}>
          Class <code>{code}</code>
        </p>
      </header>
      {status === 'idle' ? (
        <NameForm code={code} />
      ) : (
        <>
          <FollowBanner course={course} />
          <ProgressReporter course={course} />
          <SharedLab
            emptyVerdict="The verdict appears here when your instructor runs a demo."
            note={
              <p className={styles.watchNote} data-testid="watch-note">
                <strong>Your instructor drives this lab.</strong> Watch the nodes, the verdict and the timeline change as they break it. Your own
                lab is in the <Link href="/playground">playground</Link> and in <Link href="/">each lesson</Link>.
              </p>
            }
          />
        </>
      )}
    </main>
  );
}

function NameForm({ code }: { code: string }) {
  const client = useClassroomClient();
  const message = useClassroom((s) => s.message);
  const id = useId();
  const [name, setName] = useState('');
  const trimmed = name.trim();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed) client.join({ role: 'learner', code, name: trimmed, learnerId: null });
  };
  return (
    <form className={`${styles.card} ${styles.nameForm}`} onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Join the class</h2>
      <label htmlFor={`${id}-name`}>Your name</label>
      <input id={`${id}-name`} value={name} maxLength={40} autoComplete="nickname" onChange={(e) => setName(e.target.value)} required />
      <p className={styles.hint}>Shown to your instructor with how far you have got in the course (lessons read, quick checks, exercises).</p>
      <button type="submit" className={styles.primary}>
        Join
      </button>
      {message && (
        <p role="alert" className={styles.error}>
          {message}
        </p>
      )}
    </form>
  );
}

/** Reports this browser's saved progress on joining and on every change (also from another tab). */
function ProgressReporter({ course }: { course: CourseLesson[] }) {
  const client = useClassroomClient();
  const joined = useClassroom((s) => s.status === 'joined');
  const hydrated = useProgress((s) => s.hydrated);
  const lessons = useProgress((s) => s.lessons);
  const sent = useRef<ClassroomProgress | null>(null);
  const [reported, setReported] = useState<ClassroomProgress | null>(null);

  // A re-join starts a new roster entry on the server's side only if it is a new learner; report again either way.
  useEffect(() => {
    if (!joined) sent.current = null;
  }, [joined]);

  useEffect(() => {
    if (!joined || !hydrated) return;
    const report = progressReport(lessons, course);
    if (sameReport(sent.current, report)) return;
    // Changes come in bursts (several quiz answers): one report for the burst, within the server's rate limit.
    const timer = window.setTimeout(() => {
      void client.reportProgress(report).then((result) => {
        if (result.ok) {
          sent.current = report;
          setReported(report);
        }
      });
    }, 250);
    return () => window.clearTimeout(timer);
  }, [joined, hydrated, lessons, course, client]);

  if (!reported) return null;
  const quiz = Object.values(reported.quizScores);
  return (
    <p className={styles.muted} data-testid="my-progress">
      Your progress, as your instructor sees it: {reported.lessonsRead.length} of {course.length} lessons read ·{' '}
      {quiz.length === 0 ? 'no quick checks yet' : `${quiz.reduce((n, s) => n + s.correct, 0)}/${quiz.reduce((n, s) => n + s.total, 0)} quick-check answers right`} ·{' '}
      {reported.exercisesPassed.length} exercises passed
    </p>
  );
}

function FollowBanner({ course }: { course: CourseLesson[] }) {
  const router = useRouter();
  const storage = useClassroomStorage();
  const follow = useClassroom((s) => s.follow);
  const count = useClassroom((s) => s.followCount);
  const id = useId();
  const [auto, setAuto] = useState(false);
  useEffect(() => setAuto(storage?.getItem(AUTO_FOLLOW_KEY) === '1'), [storage]);

  const href = follow ? followHref(follow) : null;
  // Only a "follow me" that arrives while here moves the tab, not the one the class had when we joined.
  useEffect(() => {
    if (auto && href && count > 0) router.push(href);
  }, [count]); // eslint-disable-line react-hooks/exhaustive-deps

  const toggle = (on: boolean) => {
    setAuto(on);
    if (on) storage?.setItem(AUTO_FOLLOW_KEY, '1');
    else storage?.removeItem(AUTO_FOLLOW_KEY);
  };

  const lesson = follow ? course.find((l) => l.slug === follow.lesson) : undefined;
  const scenario = follow?.scenario ? lesson?.scenarios.find((s) => s.id === follow.scenario) : undefined;
  return (
    <div className={styles.followBar}>
      {follow && href ? (
        <p className={styles.followBanner} role="status" data-testid="follow-banner">
          Your instructor is on <strong>{lesson?.title ?? follow.lesson}</strong>
          {follow.scenario ? <> · scenario “{scenario?.title ?? follow.scenario}”</> : null}.{' '}
          <Link href={href} target="_blank" rel="noopener">
            Open it in a new tab
          </Link>
        </p>
      ) : (
        <p className={styles.muted}>When your instructor moves the class to a lesson, a link to it appears here.</p>
      )}
      <label htmlFor={`${id}-auto`} className={styles.checkbox}>
        <input id={`${id}-auto`} type="checkbox" checked={auto} onChange={(e) => toggle(e.target.checked)} />
        Take this tab there when the instructor says so
      </label>
    </div>
  );
}
