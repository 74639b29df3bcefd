/**
 * Where a lesson stands for the learner, from their saved progress: pure,
 * so the course index and the tests agree (tests/unit/progress-standing.test.ts).
 */
import { quizScore, type QuizScore } from '@/components/quiz/quiz-score';
import type { LessonProgress } from './progress-store';

/**
 * - `not-started`: nothing recorded for the lesson.
 * - `in-progress`: opened and read, run, answered or tried, but not all done.
 * - `done`: the exercise passed and every quick-check question answered.
 */
export type Standing = 'not-started' | 'in-progress' | 'done';

export interface LessonStanding {
  standing: Standing;
  read: boolean;
  runs: number;
  quiz: QuizScore;
  passed: boolean;
}

export function lessonStanding(progress: LessonProgress | undefined, quizQuestionIds: readonly string[]): LessonStanding {
  const quiz = quizScore(progress?.quiz, quizQuestionIds.map((id) => ({ id })));
  const read = progress?.read ?? false;
  const runs = progress?.runs ?? 0;
  const passed = progress?.passed ?? false;
  const done = passed && quiz.answered === quiz.total;
  const started = read || runs > 0 || quiz.answered > 0 || passed;
  return { standing: done ? 'done' : started ? 'in-progress' : 'not-started', read, runs, quiz, passed };
}

/** The icon of each standing (its word is in the `progress` catalogue, `standing.<standing>`). */
export const STANDING_ICONS: Record<Standing, string> = {
  'not-started': '○',
  'in-progress': '◐',
  done: '●',
};
