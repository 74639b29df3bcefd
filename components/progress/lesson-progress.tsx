'use client';
/**
 * One lesson's progress on the course index: where it stands (not started /
 * in progress / done) and read, ran, quiz score, exercise passed, in words
 * with an icon each, never colour alone. Nothing is claimed before the saved
 * progress has been read (the server render cannot know it).
 */
import { useTranslations } from 'next-intl';
import { useProgress } from './progress-provider';
import { lessonStanding, STANDING_ICONS } from './standing';
import styles from './progress.module.css';

export function LessonProgress({ slug, title, quizQuestionIds }: { slug: string; title: string; quizQuestionIds: readonly string[] }) {
  const t = useTranslations('progress');
  const hydrated = useProgress((s) => s.hydrated);
  const progress = useProgress((s) => s.lessons[slug]);
  if (!hydrated) {
    return (
      <div className={styles.progress} data-testid={`progress-${slug}`} aria-busy="true">
        <span className={styles.loading}>{t('reading')}</span>
      </div>
    );
  }
  const s = lessonStanding(progress, quizQuestionIds);
  const quiz =
    s.quiz.answered === 0
      ? t('quiz.notTaken')
      : s.quiz.answered < s.quiz.total
        ? t('quiz.answered', { answered: s.quiz.answered, total: s.quiz.total })
        : t('quiz.correct', { correct: s.quiz.correct, total: s.quiz.total, retry: s.quiz.rightOnRetry });
  return (
    <div className={styles.progress} data-testid={`progress-${slug}`} data-standing={s.standing} aria-label={t('groupLabel', { title })} role="group">
      <p className={styles.standing} data-standing={s.standing}>
        <span aria-hidden="true">{STANDING_ICONS[s.standing]} </span>
        {t(`standing.${s.standing}`)}
      </p>
      {s.standing !== 'not-started' && (
        <ul className={styles.items}>
          <Item done={s.read}>{s.read ? t('read') : t('notRead')}</Item>
          <Item done={s.runs > 0}>{s.runs > 0 ? t('ran', { runs: s.runs }) : t('notRun')}</Item>
          <Item done={s.quiz.answered === s.quiz.total && s.quiz.total > 0}>{quiz}</Item>
          <Item done={s.passed}>{s.passed ? t('passed') : t('notPassed')}</Item>
          <Item done={progress?.didItYourself === true}>{progress?.didItYourself ? t('didItYourself') : t('notDidItYourself')}</Item>
        </ul>
      )}
    </div>
  );
}

function Item({ done, children }: { done: boolean; children: string }) {
  return (
    <li data-done={done || undefined}>
      <span aria-hidden="true">{done ? '✓' : '–'} </span>
      {children}
    </li>
  );
}
