/**
 * The browser's picture of "Check my solution": which exercise is being
 * graded, how far the grader got, and its answer. Pure reducers, free of
 * React and socket.io (tests/unit/lesson-exercise-state.test.ts).
 */
import type { GradeProgress, GradeResult } from '@/lib/grading';
import type { Words } from '@/lib/words';

/**
 * - `idle`: not checked in this tab yet.
 * - `checking`: exercise:check sent; graded runs follow one another in the lab.
 * - `done`: the grader answered (passed or failed: see `result`).
 * - `error`: the check could not be done (no answer, refused, stopped by another run).
 */
export type ExercisePhase = 'idle' | 'checking' | 'done' | 'error';

export interface ExerciseData {
  phase: ExercisePhase;
  slug: string | null;
  progress: GradeProgress | null;
  result: GradeResult | null;
  error: string | null;
  /** The error as data, when the server worded it: the page writes it in its language. */
  errorWords?: Words | undefined;
}

export const emptyExerciseData = (): ExerciseData => ({ phase: 'idle', slug: null, progress: null, result: null, error: null });

export function reduceExerciseRequested(_exercise: ExerciseData, slug: string): ExerciseData {
  return { ...emptyExerciseData(), phase: 'checking', slug };
}

/** Progress of another exercise (a second tab on the same lab) or after the answer is ignored. */
export function reduceExerciseProgress(exercise: ExerciseData, progress: GradeProgress): ExerciseData {
  if (exercise.phase !== 'checking' || exercise.slug !== progress.slug) return exercise;
  return { ...exercise, progress };
}

export function reduceExerciseResult(exercise: ExerciseData, result: GradeResult): ExerciseData {
  if (exercise.slug !== result.slug) return exercise;
  return { ...exercise, phase: 'done', result, error: null };
}

export function reduceExerciseFailed(exercise: ExerciseData, message: string, words?: Words): ExerciseData {
  return { ...exercise, phase: 'error', error: message, errorWords: words };
}
