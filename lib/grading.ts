/** What "Check my solution" answers: shared by the server's grader and the browser. */
import type { CounterExample } from './checker/types';
import { MAX_CODE_CHARS } from './run';
import { z } from 'zod';

export const exerciseCheckSchema = z
  .object({
    slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
    code: z.string().min(1, 'the program is empty').max(MAX_CODE_CHARS),
  })
  .strict();
export type ExerciseCheckInput = z.input<typeof exerciseCheckSchema>;

export interface GradedRun {
  scenarioId: string;
  scenarioTitle: string;
  seed: number;
  runId: string;
  passed: boolean;
  /** Why it failed, in words (a violated check, liveness not met, the program's own error). */
  reason?: string;
}

export interface GradeResult {
  slug: string;
  passed: boolean;
  /** How many runs the exercise asks for; `runs` may be shorter when grading stopped at the first failure. */
  total: number;
  runs: GradedRun[];
  /** The first failing run: its counter-example (drawn on the timeline) and a hint. */
  failure: { runId: string; counterExample: CounterExample | null; message: string; hint: string | null } | null;
}

export interface GradeProgress {
  slug: string;
  done: number;
  total: number;
  current: { scenarioId: string; seed: number } | null;
}
