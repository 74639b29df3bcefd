'use client';
/**
 * The quick check: every question is shown, each a native radio group
 * (arrow keys move, Space selects) answered with its own button. After
 * answering, every choice shows why it is right or wrong, and the result is
 * announced to screen readers. Answers go to the learner's progress (by
 * lesson), so they are still there after a reload and the index can show
 * the score.
 */
import { useId, useState } from 'react';
import { useProgress, useProgressActions } from '@/components/progress/progress-provider';
import type { Quiz, QuizQuestion } from '@/lib/lessons/schema';
import { quizScore } from './quiz-score';
import styles from './quiz.module.css';

export function QuickCheck({ slug, quiz }: { slug: string; quiz: Quiz }) {
  const saved = useProgress((s) => s.lessons[slug]?.quiz);
  const { answerQuiz } = useProgressActions();
  const score = quizScore(saved, quiz.questions);

  return (
    <section className={styles.quiz} aria-labelledby="quick-check-title" data-testid="quick-check">
      <h2 id="quick-check-title">Quick check</h2>
      {quiz.questions.map((q, i) => {
        const answer = saved?.[q.id]?.answer;
        return (
          <Question
            key={q.id}
            question={q}
            number={i + 1}
            savedChoice={typeof answer === 'string' && /^\d+$/.test(answer) ? Number(answer) : null}
            onAnswer={(choice, ok) => answerQuiz(slug, q.id, String(choice), ok)}
          />
        );
      })}
      <p className={styles.score} aria-live="polite" data-testid="quiz-score">
        {score.answered === score.total
          ? `Your score: ${score.correct} of ${score.total} correct.`
          : `${score.answered} of ${score.total} answered${score.answered > 0 ? ` · ${score.correct} correct so far` : ''}.`}
      </p>
    </section>
  );
}

interface QuestionProps {
  question: QuizQuestion;
  number: number;
  /** The choice recorded in the learner's progress, if they answered before. */
  savedChoice: number | null;
  onAnswer: (choice: number, ok: boolean) => void;
}

function Question({ question, number, savedChoice, onAnswer }: QuestionProps) {
  const id = useId();
  const [picked, setPicked] = useState<number | null>(null);
  const right = question.choices.findIndex((c) => c.correct);
  // Answered = recorded in progress; until then the radio buttons are the learner's draft.
  const checked = savedChoice !== null;
  const choice = savedChoice ?? picked;

  return (
    <form
      className={styles.question}
      onSubmit={(e) => {
        e.preventDefault();
        if (picked === null || checked) return;
        onAnswer(picked, picked === right);
      }}
    >
      <fieldset disabled={checked}>
        <legend>
          <span className={styles.number}>{number}.</span> {question.prompt}
        </legend>
        {question.choices.map((c, i) => {
          const state = !checked ? '' : i === right ? styles.right : i === choice ? styles.wrong : styles.other;
          return (
            <div key={i} className={`${styles.choice} ${state}`}>
              <label>
                <input type="radio" name={id} value={i} checked={choice === i} onChange={() => setPicked(i)} /> {c.text}
              </label>
              {checked ? (
                <p className={styles.why}>
                  <strong>{i === right ? 'Right. ' : i === choice ? 'Not quite. ' : ''}</strong>
                  {c.why}
                </p>
              ) : null}
            </div>
          );
        })}
      </fieldset>
      {!checked ? (
        <button type="submit" className={styles.check} disabled={picked === null}>
          Check answer
        </button>
      ) : (
        <p className={choice === right ? styles.verdictRight : styles.verdictWrong} role="status">
          {choice === right ? '✓ Correct.' : '✗ Not quite — the right answer is marked.'}
        </p>
      )}
    </form>
  );
}
