'use client';
/**
 * /classroom/[code]: a learner gives a name and watches the class's lab live
 * (nodes, verdict, timeline) while the instructor drives it; this browser
 * reports the learner's course progress to the room, and "follow me" shows
 * a banner (or moves the tab, if the learner opted in).
 */
import { Link } from '@/i18n/navigation';
import { useRouter } from '@/i18n/navigation';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ClassroomProgress } from '@/lib/classroom';
import { useProgress } from '@/components/progress/progress-provider';
import { ClassStatus, InstructorNotice, SharedLab, useClassMessage } from './class-parts';
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
  const t = useTranslations('classroom');
  const common = useTranslations('common');
  const status = useClassroom((s) => s.status);
  const name = useClassroom((s) => s.info?.name ?? null);
  return (
    <main id="main" className={styles.page} data-role="learner">
      <header className={styles.header}>
        <div className={styles.headline}>
          <nav className={styles.crumbs} aria-label={common('breadcrumb')}>
            <Link href="/">{common('home')}</Link>
          </nav>
          <h1 className={styles.pageTitle}>{name ?? t('learner.class')}</h1>
          <ClassStatus />
        </div>
        <p className={styles.smallCode}>
          {t.rich('learner.code', { value: code, code: (c) => <code>{c}</code> })}
        </p>
      </header>
      {status === 'idle' ? (
        <NameForm code={code} />
      ) : status === 'removed' ? null : (
        <>
          <InstructorNotice />
          <FollowBanner course={course} />
          <ProgressReporter course={course} />
          <SharedLab
            course={course}
            emptyVerdict={t('learner.emptyVerdict')}
            note={
              <p className={styles.watchNote} data-testid="watch-note">
                {t.rich('learner.watch', {
                  strong: (c) => <strong>{c}</strong>,
                  playground: (c) => <Link href="/playground">{c}</Link>,
                  lessons: (c) => <Link href="/">{c}</Link>,
                })}
              </p>
            }
          />
        </>
      )}
    </main>
  );
}

function NameForm({ code }: { code: string }) {
  const t = useTranslations('classroom');
  const client = useClassroomClient();
  const message = useClassMessage();
  const id = useId();
  const [name, setName] = useState('');
  const trimmed = name.trim();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed) client.join({ role: 'learner', code, name: trimmed, learnerId: null });
  };
  return (
    <form className={`${styles.card} ${styles.nameForm}`} onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('learner.joinTitle')}</h2>
      <label htmlFor={`${id}-name`}>{t('learner.name')}</label>
      <input id={`${id}-name`} value={name} maxLength={40} autoComplete="nickname" onChange={(e) => setName(e.target.value)} required />
      <p className={styles.hint}>{t('learner.nameHint')}</p>
      <button type="submit" className={styles.primary}>
        {t('learner.join')}
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
  const t = useTranslations('classroom');
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
      {t('learner.progress', {
        read: reported.lessonsRead.length,
        lessons: course.length,
        quiz:
          quiz.length === 0
            ? t('learner.noQuiz')
            : t('learner.quiz', { correct: quiz.reduce((n, s) => n + s.correct, 0), total: quiz.reduce((n, s) => n + s.total, 0) }),
        passed: reported.exercisesPassed.length,
      })}
    </p>
  );
}

function FollowBanner({ course }: { course: CourseLesson[] }) {
  const t = useTranslations('classroom');
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
          {t.rich('learner.followed', {
            strong: (c) => <strong>{c}</strong>,
            lesson: lesson?.title ?? follow.lesson,
            scenario: follow.scenario ? (scenario?.title ?? follow.scenario) : 'none',
          })}{' '}
          <Link href={href} target="_blank" rel="noopener">
            {t('learner.openIt')}
          </Link>
        </p>
      ) : (
        <p className={styles.muted}>{t('learner.followLater')}</p>
      )}
      <label htmlFor={`${id}-auto`} className={styles.checkbox}>
        <input id={`${id}-auto`} type="checkbox" checked={auto} onChange={(e) => toggle(e.target.checked)} />
        {t('learner.autoFollow')}
      </label>
    </div>
  );
}
