/**
 * Executions of each protected job, counted as the checker counts them (lib/checker/mutual-exclusion.ts): an
 * execution that exited is completed; one whose client crashed or ended inside it was cut short (its effect is
 * unknown); one still inside when the history ends is open. Duplicates are completed executions past the expected
 * count (the lesson's `expectedExecutions`, as lib/checker/duplicates.ts reads it); a job without one is not judged.
 */
import type { CheckerOptions } from '../checker/types';
import type { HistoryEvent } from '../history';

export interface JobExecutions {
  job: string;
  completed: number;
  cut: number;
  open: number;
  /** null: the lesson expects no particular count of this job. */
  expected: number | null;
  /** Completed executions past `expected`; null when nothing is expected. */
  duplicates: number | null;
}

export function expectedExecutionsOf(expected: CheckerOptions['expectedExecutions'], job: string): number | null {
  if (expected === undefined) return null;
  if (typeof expected === 'number') return expected;
  return Object.hasOwn(expected, job) ? (expected[job] ?? null) : null;
}

export function jobExecutions(history: readonly HistoryEvent[], expected?: CheckerOptions['expectedExecutions']): JobExecutions[] {
  const tallies = new Map<string, { completed: number; cut: number }>();
  /** Open executions by client, then by job#execution. */
  const inside = new Map<number, Map<string, string>>();
  const tally = (job: string) => {
    let t = tallies.get(job);
    if (!t) tallies.set(job, (t = { completed: 0, cut: 0 }));
    return t;
  };
  for (const e of history) {
    if (e.type === 'job') {
      tally(e.job);
      const key = `${e.job}#${e.execution}`;
      let mine = inside.get(e.client);
      if (!mine) inside.set(e.client, (mine = new Map()));
      if (e.phase === 'enter') mine.set(key, e.job);
      else if (mine.delete(key)) tally(e.job).completed += 1;
    } else if (e.type === 'client' && (e.event === 'crash' || e.event === 'exit' || e.event === 'error')) {
      const mine = inside.get(e.client);
      if (!mine) continue;
      for (const job of mine.values()) tally(job).cut += 1;
      mine.clear();
    }
  }
  const openByJob = new Map<string, number>();
  for (const mine of inside.values()) for (const job of mine.values()) openByJob.set(job, (openByJob.get(job) ?? 0) + 1);
  return [...tallies.entries()]
    .map(([job, { completed, cut }]) => {
      const want = expectedExecutionsOf(expected, job);
      return { job, completed, cut, open: openByJob.get(job) ?? 0, expected: want, duplicates: want === null ? null : Math.max(0, completed - want) };
    })
    .sort((a, b) => a.job.localeCompare(b.job));
}
