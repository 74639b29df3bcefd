'use client';
/**
 * The quick check: every question is shown, each a native radio group
 * (arrow keys move, Space selects) answered with its own button. A right
 * answer shows why every choice is right or wrong. A wrong one shows why
 * that choice is wrong, without giving the right one away, and offers
 * "Try again" (the choice cleared) or "Show the answer". Answers go to the
 * learner's progress (by lesson), so they are still there after a reload and
 * the index can show the score; the score counts first answers only.
 */
import { useTranslations } from 'next-intl';
import { useId, useRef, useState } from 'react';
import { useProgress, useProgressActions } from '@/components/progress/progress-provider';
import { quizSolved, type QuizRecord } from '@/components/progress/progress-store';
import type { Quiz, QuizQuestion } from '@/lib/lessons/schema';
import { quizScore } from './quiz-score';
import styles from './quiz.module.css';

export function QuickCheck({ slug, quiz }: { slug: string; quiz: Quiz }) {
  const t = useTranslations('quiz');
  const saved = useProgress((s) => s.lessons[slug]?.quiz);
  const { answerQuiz } = useProgressActions();
  const score = quizScore(saved, quiz.questions);

  return (
    <section className={styles.quiz} aria-labelledby="quick-check-title" data-testid="quick-check">
      <h2 id="quick-check-title">{t('title')}</h2>
      {quiz.questions.map((q, i) => (
        <Question
          key={q.id}
          question={q}
          number={i + 1}
          saved={savedRecord(saved?.[q.id])}
          onAnswer={(choice, ok) => answerQuiz(slug, q.id, String(choice), ok)}
        />
      ))}
      <p className={styles.score} aria-live="polite" data-testid="quiz-score">
        {score.answered === score.total
          ? t('scoreAll', { correct: score.correct, total: score.total, retry: score.rightOnRetry })
          : score.answered > 0
            ? t('scoreSome', { answered: score.answered, correct: score.correct, total: score.total, retry: score.rightOnRetry })
            : t('scoreNone', { answered: score.answered, total: score.total })}
      </p>
    </section>
  );
}

interface SavedAnswer {
  choice: number;
  right: boolean;
  tries: number;
}

/** A record this quiz can show (a choice index), or none. */
function savedRecord(record: QuizRecord | undefined): SavedAnswer | null {
  if (!record || typeof record.answer !== 'string' || !/^\d+$/.test(record.answer)) return null;
  return { choice: Number(record.answer), right: quizSolved(record), tries: record.tries ?? 1 };
}

interface QuestionProps {
  question: QuizQuestion;
  number: number;
  /** The latest answer recorded in the learner's progress, if they answered before. */
  saved: SavedAnswer | null;
  onAnswer: (choice: number, ok: boolean) => void;
}

function Question({ question, number, saved, onAnswer }: QuestionProps) {
  const t = useTranslations('quiz');
  const id = useId();
  const [picked, setPicked] = useState<number | null>(null);
  // After a wrong answer: trying again (the radios are a draft again) or the answer shown.
  const [retrying, setRetrying] = useState(false);
  const [revealed, setRevealed] = useState(false);
  const firstChoice = useRef<HTMLInputElement>(null);
  const right = question.choices.findIndex((c) => c.correct);
  // Answered = recorded in progress and not being tried again; until then the radio buttons are the learner's draft.
  const checked = saved !== null && !retrying;
  const choice = checked ? saved.choice : picked;
  // The right answer is shown once it was chosen, or asked for; a wrong answer alone shows only why it is wrong.
  const showAll = checked && (saved.right || revealed);

  const tryAgain = () => {
    setPicked(null);
    setRevealed(false);
    setRetrying(true);
    // The button goes away: the keyboard continues at the choices, not at the top of the page.
    requestAnimationFrame(() => firstChoice.current?.focus());
  };

  return (
    <form
      className={styles.question}
      onSubmit={(e) => {
        e.preventDefault();
        if (picked === null || checked) return;
        onAnswer(picked, picked === right);
        setRetrying(false);
      }}
    >
      <fieldset disabled={checked}>
        <legend>
          <span className={styles.number}>{number}.</span> {question.prompt}
        </legend>
        {question.choices.map((c, i) => {
          const state = !checked ? '' : showAll && i === right ? styles.right : i === choice ? styles.wrong : styles.other;
          const explained = showAll || (checked && i === choice);
          return (
            <div key={i} className={`${styles.choice} ${state}`}>
              <label>
                <input ref={i === 0 ? firstChoice : undefined} type="radio" name={id} value={i} checked={choice === i} onChange={() => setPicked(i)} /> {c.text}
              </label>
              {explained ? (
                <p className={styles.why}>
                  <strong>{i === right ? t('right') : i === choice ? t('notQuite') : ''}</strong>
                  {c.why}
                </p>
              ) : null}
            </div>
          );
        })}
      </fieldset>
      {!checked ? (
        <button type="submit" className={styles.check} disabled={picked === null}>
          {t('checkAnswer')}
        </button>
      ) : saved.right ? (
        <p className={styles.verdictRight} role="status">
          {saved.tries === 1 ? t('correct') : t('correctOnTry', { tries: saved.tries })}
        </p>
      ) : (
        <div className={styles.retry}>
          <p className={styles.verdictWrong} role="status">
            {revealed ? t('wrongRevealed') : t('wrong')}
          </p>
          <button type="button" className={styles.check} onClick={tryAgain}>
            {t('tryAgain')}
          </button>
          {!revealed && (
            <button type="button" className={styles.secondary} onClick={() => setRevealed(true)}>
              {t('showAnswer')}
            </button>
          )}
        </div>
      )}
    </form>
  );
}
