/**
 * The browser's picture of "Explore": a search for a fault schedule that
 * breaks the program, how far it got, and what it found. Pure reducers, free
 * of React and socket.io (tests/unit/explore-state.test.ts).
 */
import type { ExploreProgress, ExploreResult } from '@/lib/explore';
import type { Words } from '@/lib/words';

/**
 * - `idle`: no search in this tab yet.
 * - `exploring`: explore:run sent; schedules play one after another in the lab, then the shrinking.
 * - `done`: the search answered (see `result`: found, or how much it tried).
 * - `error`: the search could not be done (refused, stopped by another run).
 */
export type ExplorePhase = 'idle' | 'exploring' | 'done' | 'error';

export interface ExploreData {
  phase: ExplorePhase;
  progress: ExploreProgress | null;
  result: ExploreResult | null;
  error: string | null;
  /** The error as data, when the server worded it: the page writes it in its language. */
  errorWords?: Words | undefined;
}

export const emptyExploreData = (): ExploreData => ({ phase: 'idle', progress: null, result: null, error: null });

export function reduceExploreRequested(): ExploreData {
  return { ...emptyExploreData(), phase: 'exploring' };
}

/** Progress arriving after the answer (or from another tab's search on this lab) changes nothing. */
export function reduceExploreProgress(explore: ExploreData, progress: ExploreProgress): ExploreData {
  if (explore.phase !== 'exploring') return explore;
  return { ...explore, progress };
}

export function reduceExploreResult(explore: ExploreData, result: ExploreResult): ExploreData {
  return { ...explore, phase: 'done', result, error: null };
}

export function reduceExploreFailed(explore: ExploreData, message: string, words?: Words): ExploreData {
  return { ...explore, phase: 'error', error: message, errorWords: words };
}
