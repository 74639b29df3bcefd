/**
 * Refusal lines an attacker provokes are bounded: the first of a kind is
 * written, the rest within the window are counted and summed up in one line,
 * and the number of kinds held at once is bounded too.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_KINDS, RepeatGate, type Repeats } from '@/server/ops/repeat-gate';

afterEach(() => {
  vi.useRealTimers();
});

describe('the repeat gate', () => {
  it('writes the first line of a kind, counts the next 986, and sums them up in one line when the window has passed', () => {
    let now = 0;
    const summaries: Repeats[] = [];
    const gate = new RepeatGate((r) => summaries.push(r), () => now, 10_000);
    const written = Array.from({ length: 987 }, () => gate.admit('rate-limited browser-a')).filter(Boolean).length;
    expect(written).toBe(1);
    // Another browser's refusal is its own kind: written.
    expect(gate.admit('rate-limited browser-b')).toBe(true);
    expect(summaries).toEqual([]);
    now = 10_000;
    // The next line after the window is written again, and the window's repeats are summed up first.
    expect(gate.admit('rate-limited browser-a')).toBe(true);
    expect(summaries).toEqual([{ kind: 'rate-limited browser-a', repeats: 986, windowMs: 10_000 }]);
  });

  it('sums up the last window even when the lines stop', () => {
    vi.useFakeTimers();
    const summaries: Repeats[] = [];
    const gate = new RepeatGate((r) => summaries.push(r), () => Date.now(), 10_000);
    gate.admit('socket-flood s1');
    gate.admit('socket-flood s1');
    gate.admit('socket-flood s1');
    vi.advanceTimersByTime(10_000);
    expect(summaries).toEqual([{ kind: 'socket-flood s1', repeats: 2, windowMs: 10_000 }]);
  });

  it('holds at most MAX_KINDS kinds: past them, new kinds share one count and are not written one by one', () => {
    const summaries: Repeats[] = [];
    const gate = new RepeatGate((r) => summaries.push(r), () => 0, 10_000);
    let written = 0;
    for (let i = 0; i < MAX_KINDS + 500; i++) if (gate.admit(`new-browsers b${i}`)) written++;
    expect(written).toBe(MAX_KINDS);
  });
});
