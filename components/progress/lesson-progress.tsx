'use client';
/**
 * One lesson's progress on the course index: where it stands (not started /
 * in progress / done) and read, ran, quiz score, exercise passed, in words
 * with an icon each, never colour alone. Nothing is claimed before the saved
 * progress has been read (the server render cannot know it).
 */
import { useProgress } from './progress-provider';
import { retryWords } from '@/components/quiz/quiz-score';
import { lessonStanding, STANDING_WORDS } from './standing';
import styles from './progress.module.css';

export function LessonProgress({ slug, title, quizQuestionIds }: { slug: string; title: string; quizQuestionIds: readonly string[] }) {
  const hydrated = useProgress((s) => s.hydrated);
  const progress = useProgress((s) => s.lessons[slug]);
  if (!hydrated) {
    return (
      <div className={styles.progress} data-testid={`progress-${slug}`} aria-busy="true">
        <span className={styles.loading}>Reading your progress…</span>
      </div>
    );
  }
  const s = lessonStanding(progress, quizQuestionIds);
  const words = STANDING_WORDS[s.standing];
  const quiz =
    s.quiz.answered === 0
      ? 'Quick check: not taken'
      : s.quiz.answered < s.quiz.total
        ? `Quick check: ${s.quiz.answered} of ${s.quiz.total} answered`
        : `Quick check: ${s.quiz.correct} of ${s.quiz.total} correct${retryWords(s.quiz)}`;
  return (
    <div className={styles.progress} data-testid={`progress-${slug}`} data-standing={s.standing} aria-label={`Your progress in “${title}”`} role="group">
      <p className={styles.standing} data-standing={s.standing}>
        <span aria-hidden="true">{words.icon} </span>
        {words.word}
      </p>
      {s.standing !== 'not-started' && (
        <ul className={styles.items}>
          <Item done={s.read}>{s.read ? 'Read' : 'Not read to the end'}</Item>
          <Item done={s.runs > 0}>{s.runs > 0 ? `Ran ${s.runs === 1 ? 'once' : `${s.runs} times`}` : 'Not run yet'}</Item>
          <Item done={s.quiz.answered === s.quiz.total && s.quiz.total > 0}>{quiz}</Item>
          <Item done={s.passed}>{s.passed ? 'Exercise passed' : 'Exercise not passed yet'}</Item>
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
