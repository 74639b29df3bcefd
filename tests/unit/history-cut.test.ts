import { describe, expect, it } from 'vitest';
import { IncrementalChecker } from '@/lib/checker';
import type { HistoryEvent } from '@/lib/history';
import { cutVerdict, historyCutMessage, sizeWords } from '@/server/runs/history-cut';

const job = (seq: number, t: number, client: number, phase: 'enter' | 'exit', execution: number): HistoryEvent => ({ type: 'job', seq, t, client, phase, job: 'report', execution });
const cut = { message: 'This run produced more than 8 MB of history (the limit per run), so it was stopped.', t: 100, seq: 3 };

describe('a run stopped for its history', () => {
  it('says which limit it crossed, in a learner’s words', () => {
    const budget = { runEvents: 50_000, runBytes: 8 * 1024 * 1024 };
    expect(historyCutMessage({ events: 10, bytes: 9 * 1024 * 1024 }, budget)).toBe(cut.message);
    expect(historyCutMessage({ events: 50_001, bytes: 1024 }, budget)).toBe('This run produced more than 50,000 history events (the limit per run), so it was stopped.');
    expect(sizeWords(128 * 1024)).toBe('128 KB');
    expect(sizeWords(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });

  it('cannot claim "held": what its clients did after the cut was not seen', () => {
    const held = new IncrementalChecker().push([job(0, 10, 1, 'enter', 1), job(1, 20, 1, 'exit', 1), job(2, 30, 2, 'enter', 2), job(3, 40, 2, 'exit', 2)]).verdict({ final: true });
    expect(held.valid).toBe('held');
    const verdict = cutVerdict(held, cut);
    expect(verdict.valid).toBe('unknown');
    expect(verdict.counterExample?.message).toContain(cut.message);
    expect(verdict.counterExample?.seqs).toEqual([3]);
    expect(verdict.checks['mutual-exclusion'].notes.at(-1)).toContain('up to the history limit');
  });

  it('keeps a violation found in what was recorded', () => {
    const violated = new IncrementalChecker().push([job(0, 10, 1, 'enter', 1), job(1, 20, 2, 'enter', 2), job(2, 30, 1, 'exit', 1), job(3, 40, 2, 'exit', 2)]).verdict({ final: true });
    expect(violated.valid).toBe('violated');
    const verdict = cutVerdict(violated, cut);
    expect(verdict.valid).toBe('violated');
    expect(verdict.counterExample).toEqual(violated.counterExample);
  });
});
