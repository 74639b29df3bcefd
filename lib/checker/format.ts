/** Plain-words formatting for counter-examples and diagnoses. */
import { clientLabel, nodeLabel } from '../cluster';

export { clientLabel, nodeLabel };

export { formatDuration } from '../durations';

/** A point on the lab clock: "820 ms", "1.24 s". */
export function formatTime(t: number): string {
  if (Math.abs(t) < 1000) return `${Math.round(t)} ms`;
  return `${(t / 1000).toFixed(2)} s`;
}

/** Words for a point in time, as the learner reads it. */
export type TimeWords = (t: number) => string;

/** Lab-clock times written relative to `origin` (the run's start), so a run reads from 0 like its timeline. */
export function timeWords(origin = 0): TimeWords {
  return (t) => formatTime(t - origin);
}

export function quote(name: string): string {
  return `'${name}'`;
}

/** How a client's program ended, as a verb: "crashed", "ended", "stopped with an error". */
export function endWords(how: 'crash' | 'exit' | 'error'): string {
  if (how === 'crash') return 'crashed';
  if (how === 'error') return 'stopped with an error';
  return 'ended';
}

/** "once", "twice", "3 times". */
export function times(n: number): string {
  if (n === 1) return 'once';
  if (n === 2) return 'twice';
  return `${n} times`;
}

export function sortedUnique(values: Iterable<number>): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}
