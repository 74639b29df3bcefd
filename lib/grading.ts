/** What "Check my solution" answers: shared by the server's grader and the browser. */
import type { CounterExample, TimeWindow } from './checker/types';
import type { Words } from './words';
import { MAX_CODE_CHARS } from './run';
import { z } from 'zod';
import { LOCALES } from '../i18n/routing';

export const exerciseCheckSchema = z
  .object({
    slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
    code: z.string().min(1, 'the program is empty').max(MAX_CODE_CHARS),
    /** The page's language: the grader writes its words (a failed check's title, a probe's sentence, the hint) in it. */
    locale: z.enum(LOCALES).default('en'),
  })
  .strict();
export type ExerciseCheckInput = z.input<typeof exerciseCheckSchema>;

export interface GradedRun {
  /** A scenario's id, an adversary's id, or `hidden` for a hidden check that passed (its title stays unsaid). */
  scenarioId: string;
  /** What ran: a scenario's title; a hidden check's own title only once it failed ("Hidden check 2 of 3" before). */
  scenarioTitle: string;
  /** A check the page never lists (its title is told only when it fails). */
  hidden?: boolean;
  /** Its place in the check's plan, from 1: the number the page gives the run it shows (absent in older answers). */
  place?: number;
  /** A probe calls the learner's function on its own; its seed is its scenario's and means little to a learner. */
  probe?: boolean;
  seed: number;
  runId: string;
  passed: boolean;
  /** Why it failed, in words (a violated check, liveness not met, the program's own error). */
  reason?: string;
  /** `reason` as data, when it is the grader's or the checker's own sentence (absent otherwise, and in older answers). */
  reasonWords?: Words;
  /** `reason` in the language the check was asked in, when the server wrote it (a probe's sentence); absent in English. */
  reasonShown?: string;
}

export interface GradeResult {
  slug: string;
  passed: boolean;
  /**
   * Set when nothing could be decided: a graded run failed only while the machine kept the lab waiting for
   * a CPU, every time it was played (server/grading/disturbance.ts). `passed` is false and `failure` null.
   */
  busy?: string;
  /** `busy` as data, for a page in another language (absent in older answers). */
  busyWords?: Words;
  /** How many runs the exercise asks for; `runs` may be shorter when grading stopped at the first failure. */
  total: number;
  runs: GradedRun[];
  /** The first failing run: its counter-example (drawn on the timeline) and a hint. */
  failure: {
    runId: string;
    counterExample: CounterExample | null;
    /** Where on the timeline the failure is, when the checker has no counter-example (a probe said it). */
    window?: TimeWindow;
    message: string;
    /** `message` as data, for a page in another language (absent when the sentence is not the grader's own). */
    words?: Words;
    /** `message` written by the server in the check's language (a probe's sentence), when it has no `words`. */
    shown?: string;
    /** The lesson's first hint, in the check's language. */
    hint: string | null;
  } | null;
}

export interface GradeProgress {
  slug: string;
  done: number;
  total: number;
  /**
   * The run going on: `title` in the learner's words; for a hidden check, which of the hidden ones it is (the page
   * words it: its title is not told until it fails).
   */
  current: { scenarioId: string; seed: number; title?: string; hidden?: { n: number; total: number } | null } | null;
}
