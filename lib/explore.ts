/**
 * "Explore": a search for a schedule of faults that breaks the learner's
 * program (Jepsen's generator and shrinker, lib/schedules). Shared by the
 * server that searches and the browser that shows the progress and the
 * minimal counter-example. A search that finds nothing says what it tried —
 * never that the code is proven right.
 */
import { z } from 'zod';
import type { CounterExample } from './checker/types';
import type { Words } from './words';
import { MAX_CODE_CHARS } from './run';
import { LOCALES } from '../i18n/routing';

/** The most a learner may ask one search to take; the server holds it to this. */
export const MAX_EXPLORE_SECONDS = 60;

export const exploreInputSchema = z
  .object({
    /** The lesson whose fault space to search (its allowed faults); absent in the playground. */
    slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/).optional(),
    code: z.string().min(1, 'the program is empty').max(MAX_CODE_CHARS),
    /** How long to search, shrinking included. */
    seconds: z.number().int().min(5).max(MAX_EXPLORE_SECONDS).default(20),
    /** Where the schedules' seeds start: the same number searches the same schedules again. */
    seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
    /** The page's language: a lesson's schedule that breaks the program is named in it (the search is the same). */
    locale: z.enum(LOCALES).default('en'),
  })
  .strict();
export type ExploreInput = z.input<typeof exploreInputSchema>;

export interface ExploreProgress {
  /** `aimed`: the random search's time is up, and the lesson's own schedules aimed at its bugs still play to their end. */
  phase: 'searching' | 'aimed' | 'shrinking' | 'replaying';
  /** Schedules run so far (searching), or shrink candidates tried (shrinking). */
  schedules: number;
  shrinkRuns: number;
  /** Faults of the failing schedule, as shrinking removes them. */
  faults: number | null;
  elapsedMs: number;
  budgetMs: number;
}

export type ExploreResult =
  | {
      found: false;
      schedules: number;
      seconds: number;
      /** The seed the search started from. */
      seed: number;
      /** What the schedules were drawn from, in words ("pauses of a client, 50–400 ms; crashes; …"). */
      checked: string[];
      /** `checked` as data, one for one, for a page in another language (absent in older answers). */
      checkedWords?: Words[];
      /** The lesson's targeted schedules played first, and the most faults a random schedule held (absent in older answers). */
      targeted?: number;
      maxFaults?: number;
    }
  | {
      found: true;
      schedules: number;
      seconds: number;
      seed: number;
      checked: string[];
      checkedWords?: Words[];
      targeted?: number;
      maxFaults?: number;
      /** Set when what broke it was one of the lesson's targeted schedules (its title): shown as written, not shrunk. */
      targetedTitle?: string;
      /** The minimal schedule's run, in the learner's own lab (drawn on the timeline). */
      runId: string;
      /** The minimal schedule, a line per fault. */
      lines: string[];
      /** `lines` as data, one for one (absent in older answers). */
      linesWords?: Words[];
      message: string;
      /** `message` as data, for a page in another language. */
      words?: Words;
      counterExample: CounterExample | null;
      faultsBefore: number;
      faultsAfter: number;
      shrinkRuns: number;
      /** The minimal schedule's seed: a scenario a learner can name. */
      scheduleSeed: number;
      /**
       * Whether the failing run is the learner's lab's last (its verdict and timeline show it). False when the
       * schedule broke safety during the search but not again in the replays: the interleaving depends on timing.
       */
      onTimeline: boolean;
    };
