/**
 * The course index: where to continue (the lesson last worked in), classes
 * to join or start, and the eight lessons in order with where each one stands
 * (read, ran, quiz score, exercise passed). Lessons come from the loader at
 * build time (static page); the progress is this browser's, read after mount.
 */
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { ContinueLesson } from '@/components/progress/continue-lesson';
import { LessonProgress } from '@/components/progress/lesson-progress';
import { Link } from '@/i18n/navigation';
import type { Locale } from '@/i18n/routing';
import { summarize } from '@/lib/lessons/load';
import { loadAllLessonsIn } from '@/lib/lessons/localize';
import styles from './page.module.css';

export default async function HomePage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations('course');
  const lessons = loadAllLessonsIn(locale).map(({ lesson: l }) => ({ ...summarize(l), quizQuestionIds: l.quiz.questions.map((q) => q.id) }));
  const topology = (l: (typeof lessons)[number]) => {
    const shape = l.topology.kind === 'replicated' ? t('topology.replicated') : l.topology.nodes === 1 ? t('topology.single') : t('topology.masters', { count: l.topology.nodes });
    return l.topology.persistence === 'none' ? shape : `${shape} · ${t(`persistence.${l.topology.persistence}`)}`;
  };
  return (
    <main id="main" className={styles.page}>
      <h1 className={styles.title}>Lock Lab</h1>
      <p className={styles.lead}>{t.rich('lead', { code: (chunks) => <code>{chunks}</code> })}</p>

      <div className={styles.start}>
        <ContinueLesson className={`${styles.card} ${styles.continue}`} lessons={lessons} />
        <section className={styles.card} aria-labelledby="classes-title">
          <h2 id="classes-title">{t('classes.title')}</h2>
          <p>{t('classes.text')}</p>
          <Link className={styles.cta} href="/classroom#join">
            {t('classes.join')}
          </Link>
          <p className={styles.aside}>{t.rich('classes.teaching', { link: (chunks) => <Link href="/classroom">{chunks}</Link> })}</p>
        </section>
      </div>

      <section aria-labelledby="course-title" className={styles.course}>
        <h2 id="course-title">{t('courseTitle')}</h2>
        {/* Each lesson's progress comes from this browser's saved progress (components/progress), read after mount. */}
        <ol className={styles.lessons}>
          {lessons.map((l) => (
            <li key={l.slug} className={styles.lesson}>
              <span className={styles.order} aria-hidden="true">
                {l.order}
              </span>
              <div>
                <h3>
                  <Link href={`/lessons/${l.slug}`}>{l.title}</Link>
                </h3>
                <p>{l.summary}</p>
                <p className={styles.meta}>{t('lessonMeta', { minutes: l.minutes, topology: topology(l) })}</p>
              </div>
              <LessonProgress slug={l.slug} title={l.title} quizQuestionIds={l.quizQuestionIds} />
            </li>
          ))}
        </ol>
      </section>

      <section className={styles.card} aria-labelledby="playground-title">
        <h2 id="playground-title">{t('playground.title')}</h2>
        <p>{t('playground.text')}</p>
        <Link className={styles.cta} href="/playground">
          {t('playground.open')}
        </Link>
        <p>{t.rich('playground.reference', { link: (chunks) => <Link href="/reference">{chunks}</Link> })}</p>
      </section>
    </main>
  );
}
