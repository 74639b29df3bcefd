import type { HistoryEvent } from '../history';
import { IncrementalChecker } from './incremental';
import type { CheckerOptions, Verdict } from './types';

/**
 * Checks a whole history at once. By default the history is taken as final
 * (the run is over: what never completed is indeterminate); pass
 * `{ final: false }` to check a run still in progress, or a prefix of one.
 */
export function check(history: readonly HistoryEvent[], options: CheckerOptions & { final?: boolean } = {}): Verdict {
  const { final = true, ...checkerOptions } = options;
  return new IncrementalChecker(checkerOptions).push(history).verdict({ final });
}
