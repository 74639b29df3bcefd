/** A lesson's quick-check score from the learner's saved answers (only questions the quiz still has count). */
export interface QuizScore {
  answered: number;
  correct: number;
  total: number;
}

export function quizScore(saved: Record<string, { correct: boolean }> | undefined, questions: readonly { id: string }[]): QuizScore {
  let answered = 0;
  let correct = 0;
  for (const q of questions) {
    const answer = saved?.[q.id];
    if (!answer) continue;
    answered++;
    if (answer.correct) correct++;
  }
  return { answered, correct, total: questions.length };
}
