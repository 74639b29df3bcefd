/** Plain-words formatting for counter-examples and diagnoses. */
import { clientLabel, nodeLabel } from '../cluster';
import { words, type WordValue } from '../words';

export { duration } from '../words';
export { say } from './said';

export { clientLabel, nodeLabel };

export { formatDuration, formatLabTime as formatTime } from '../durations';

/** A point in time as a sentence's value, as the learner reads it (the page writes it in its language). */
export type TimeWords = (t: number) => WordValue;

/** Lab-clock times relative to `origin` (the run's start), so a run reads from 0 like its timeline. */
export function timeWords(origin = 0): TimeWords {
  return (t) => ({ time: t - origin });
}

export function client(n: number): WordValue {
  return { client: n };
}

export function node(n: number): WordValue {
  return { node: n };
}

export function code(name: string): WordValue {
  return { code: name };
}

/** How a client's program ended, as a verb phrase ("crashed", "ended", "stopped with an error"). */
export function ended(how: 'crash' | 'exit' | 'error'): WordValue {
  return { words: words('checker.phrase.ended', { how }) };
}

/** "once", "twice", "3 times". */
export function timesValue(n: number): WordValue {
  return { words: words('checker.phrase.times', { n }) };
}

export function sortedUnique(values: Iterable<number>): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}
