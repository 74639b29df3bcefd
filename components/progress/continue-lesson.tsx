'use client';
/**
 * "Continue where you left off" on the course index: a link to the lesson
 * the learner was last in, with where it stands (and the next lesson once it
 * is done). Nothing for a first-time visitor, nor before the saved progress
 * has been read (the server render cannot know it).
 */
import { useTranslations } from 'next-intl';
import { Link } from '@/i18n/navigation';
import { useProgress } from './progress-provider';
import { lessonStanding, STANDING_ICONS } from './standing';
import styles from './progress.module.css';

export interface CourseEntry {
  slug: string;
  order: number;
  title: string;
  summary: string;
  quizQuestionIds: readonly string[];
}

export function ContinueLesson({ lessons, className }: { lessons: readonly CourseEntry[]; className?: string }) {
  const t = useTranslations('progress');
  const hydrated = useProgress((s) => s.hydrated);
  const last = useProgress((s) => s.lastLesson);
  const progress = useProgress((s) => (s.lastLesson ? s.lessons[s.lastLesson.slug] : undefined));
  const index = last ? lessons.findIndex((l) => l.slug === last.slug) : -1;
  if (!hydrated || index === -1) return null;
  const lesson = lessons[index]!;
  const next = lessons[index + 1];
  const standing = lessonStanding(progress, lesson.quizQuestionIds).standing;
  return (
    <section className={className} aria-labelledby="continue-title" data-testid="continue">
      <h2 id="continue-title">{t('continue.title')}</h2>
      <p>
        <Link className={styles.continueLink} href={`/lessons/${lesson.slug}`}>
          {t('continue.lesson', { order: lesson.order, title: lesson.title })}
        </Link>
      </p>
      <p className={styles.continueSummary}>{lesson.summary}</p>
      <p className={styles.continueStanding}>
        <span aria-hidden="true">{STANDING_ICONS[standing]} </span>
        {t(`standing.${standing}`)}
        {standing === 'done' && next && (
          <>
            {' '}
            · {t('continue.next')} <Link href={`/lessons/${next.slug}`}>{t('continue.lesson', { order: next.order, title: next.title })}</Link>
          </>
        )}
      </p>
    </section>
  );
}
