/**
 * The page's reading of a breakpoint stop (components/lab/breakpoint-state.ts): a stop starts at the run's
 * "Stopped at your breakpoint" note and ends at its Resume or Step note; another run's notes do not end it;
 * the moments offered cover any client, each client and each node's vote.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '@/lib/history';
import { breakpointChoices, nextBreakpointStop } from '@/components/lab/breakpoint-state';
import { words, type MessageKey } from '@/lib/words';

let seq = 0;
const note = (runId: string, key: MessageKey): HistoryEvent => ({ type: 'console', client: 0, level: 'info', text: key, words: words(key), runId, seq: seq++, t: seq * 10 });
const line = (runId: string, text: string): HistoryEvent => ({ type: 'console', client: 1, level: 'log', text, runId, seq: seq++, t: seq * 10 });

describe('nextBreakpointStop', () => {
  it('starts at the hit note and ends at Resume or Step of the same run', () => {
    const hit = note('r1', 'runNotes.breakpointHit');
    const stop = nextBreakpointStop(null, [line('r1', 'hello'), hit]);
    expect(stop).toMatchObject({ runId: 'r1', seq: hit.seq, t: hit.t });
    expect(nextBreakpointStop(stop, [line('r1', 'still')])).toBe(stop);
    expect(nextBreakpointStop(stop, [note('r2', 'runNotes.breakpointContinue')])).toBe(stop);
    expect(nextBreakpointStop(stop, [note('r1', 'runNotes.breakpointContinue')])).toBeNull();
    expect(nextBreakpointStop(stop, [note('r1', 'runNotes.breakpointStep')])).toBeNull();
    // A Step's stop follows its note in the same batch.
    expect(nextBreakpointStop(stop, [note('r1', 'runNotes.breakpointStep'), note('r1', 'runNotes.breakpointHit')])).not.toBeNull();
  });

  it('offers any client, each client’s four moments and each node’s vote', () => {
    const choices = breakpointChoices(2, 5);
    expect(choices.map((c) => c.id)).toEqual([
      'lock-any', 'enter-any', 'exit-any',
      'lock-1', 'enter-1', 'exit-1', 'answered-1',
      'lock-2', 'enter-2', 'exit-2', 'answered-2',
      'vote-1', 'vote-2', 'vote-3', 'vote-4', 'vote-5',
    ]);
    expect(choices.find((c) => c.id === 'vote-3')?.when).toEqual({ on: 'command-answered', command: 'SET', reply: 'OK', node: 3, nth: 1 });
  });
});
