/**
 * A run stopped for producing too much history: its words, and what its
 * verdict may still claim. The checker saw the run up to the cut; whatever the
 * clients did between the cut and their stop (a few milliseconds of a flood)
 * was never recorded. So:
 * - a violation found in the recorded part stands (it happened);
 * - "held" cannot be claimed for a run whose end was not seen: it becomes
 *   "unknown", with the reason as its counter-example, at the cut.
 */
import type { CheckResult, Verdict } from '@/lib/checker';
import { say } from '@/lib/checker/said';
import type { Said, Words } from '@/lib/words';
import type { HistoryBudget, RunUsage } from '../lab/history-log';

/** "8 MB", "1.5 MB", "256 KB": a size as a learner reads it. */
export function sizeWords(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The learner's words: which of the run's limits it crossed. */
export function historyCutSaid(usage: RunUsage, budget: Pick<HistoryBudget, 'runEvents' | 'runBytes'>): Said {
  return usage.bytes > budget.runBytes
    ? say('runNotes.historyBytes', { size: sizeWords(budget.runBytes) })
    : say('runNotes.historyEvents', { events: budget.runEvents });
}

/** `historyCutSaid` in English. */
export function historyCutMessage(usage: RunUsage, budget: Pick<HistoryBudget, 'runEvents' | 'runBytes'>): string {
  return historyCutSaid(usage, budget).message;
}

export interface HistoryCut {
  message: string;
  /** `message` as data (the run's console and its end reason in the page's language). */
  words?: Words;
  /** Lab time and seq of the last event recorded for the run. */
  t: number;
  seq: number;
}

/** The final verdict of a run whose history was cut. */
export function cutVerdict(verdict: Verdict, cut: HistoryCut): Verdict {
  const note = `Only the run up to the history limit was recorded and checked; what its clients did after that is unknown.`;
  const checks = Object.fromEntries(
    Object.entries(verdict.checks).map(([name, check]) => [name, check.applicable ? { ...check, notes: [...check.notes, note] } : check]),
  ) as Record<keyof Verdict['checks'], CheckResult>;
  if (verdict.valid !== 'held') return { ...verdict, checks };
  const first = Object.values(checks).find((c) => c.applicable)?.check ?? 'mutual-exclusion';
  return {
    ...verdict,
    valid: 'unknown',
    checks,
    counterExample: { check: first, message: `${cut.message} ${note}`, seqs: [cut.seq], window: { from: cut.t, to: cut.t }, clients: [] },
  };
}
