/**
 * A lesson's quick-check score from the learner's saved answers (only
 * questions the quiz still has count). `correct` counts first answers only;
 * a question got right after "Try again" is counted apart, in `rightOnRetry`.
 */
export interface QuizScore {
  answered: number;
  correct: number;
  /** Questions answered wrong first, then right after trying again. */
  rightOnRetry: number;
  total: number;
}

export function quizScore(saved: Record<string, { correct: boolean; solved?: boolean }> | undefined, questions: readonly { id: string }[]): QuizScore {
  let answered = 0;
  let correct = 0;
  let rightOnRetry = 0;
  for (const q of questions) {
    const answer = saved?.[q.id];
    if (!answer) continue;
    answered++;
    if (answer.correct) correct++;
    else if (answer.solved) rightOnRetry++;
  }
  return { answered, correct, rightOnRetry, total: questions.length };
}
