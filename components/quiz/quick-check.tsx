'use client';
/**
 * The quick check: one question at a time is not needed — all questions are
 * shown, each a native radio group (arrow keys move, Space selects), answered
 * with its own button. After answering, every choice shows why it is right or
 * wrong, and the result is announced to screen readers.
 */
import { useId, useState } from 'react';
import type { Quiz, QuizQuestion } from '@/lib/lessons/schema';
import styles from './quiz.module.css';

export function QuickCheck({ quiz, onComplete }: { quiz: Quiz; onComplete?: (correct: number, total: number) => void }) {
  const [results, setResults] = useState<Record<string, boolean>>({});
  const answered = Object.keys(results).length;
  const correct = Object.values(results).filter(Boolean).length;

  const record = (id: string, ok: boolean) => {
    const next = { ...results, [id]: ok };
    setResults(next);
    const values = Object.values(next);
    if (values.length === quiz.questions.length) onComplete?.(values.filter(Boolean).length, values.length);
  };

  return (
    <section className={styles.quiz} aria-labelledby="quick-check-title">
      <h2 id="quick-check-title">Quick check</h2>
      {quiz.questions.map((q, i) => (
        <Question key={q.id} question={q} number={i + 1} onAnswer={(ok) => record(q.id, ok)} />
      ))}
      <p className={styles.score} aria-live="polite">
        {answered === quiz.questions.length ? `You answered ${correct} of ${quiz.questions.length} correctly.` : `${answered} of ${quiz.questions.length} answered.`}
      </p>
    </section>
  );
}

function Question({ question, number, onAnswer }: { question: QuizQuestion; number: number; onAnswer: (ok: boolean) => void }) {
  const id = useId();
  const [choice, setChoice] = useState<number | null>(null);
  const [checked, setChecked] = useState(false);
  const right = question.choices.findIndex((c) => c.correct);

  return (
    <form
      className={styles.question}
      onSubmit={(e) => {
        e.preventDefault();
        if (choice === null || checked) return;
        setChecked(true);
        onAnswer(choice === right);
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
                <input type="radio" name={id} value={i} checked={choice === i} onChange={() => setChoice(i)} /> {c.text}
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
        <button type="submit" className={styles.check} disabled={choice === null}>
          Check answer
        </button>
      ) : (
        <p className={choice === right ? styles.verdictRight : styles.verdictWrong} role="status">
          {choice === right ? 'Correct.' : 'Not quite — the right answer is marked.'}
        </p>
      )}
    </form>
  );
}
