/** The pacer that shares the server's command rate among runs: order kept, rate held, nothing lost. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Pacer } from '@/server/sandbox/worker/pacer';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Pacer', () => {
  it('lets everything through at once while unpaced', () => {
    const pacer = new Pacer();
    const sent: number[] = [];
    for (let i = 0; i < 1_000; i++) pacer.admit(1, () => sent.push(i));
    expect(sent).toHaveLength(1_000);
  });

  it('holds a run to its share, a tenth of a second of budget at a time, in the order asked', () => {
    const pacer = new Pacer();
    pacer.setRate(100); // bucket of 10, starting empty
    const sent: number[] = [];
    for (let i = 0; i < 30; i++) pacer.admit(1, () => sent.push(i));
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(sent.length).toBeGreaterThanOrEqual(9);
    expect(sent.length).toBeLessThanOrEqual(11);
    vi.advanceTimersByTime(200);
    expect(sent).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('sends a batch larger than its bucket once the bucket is full', () => {
    const pacer = new Pacer();
    pacer.setRate(100);
    const sent: string[] = [];
    pacer.admit(50, () => sent.push('batch'));
    pacer.admit(1, () => sent.push('after'));
    vi.advanceTimersByTime(99);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(2);
    expect(sent).toEqual(['batch']);
    // The batch left the bucket 40 in debt: the next command waits for it to be paid.
    vi.advanceTimersByTime(300);
    expect(sent).toEqual(['batch']);
    vi.advanceTimersByTime(200);
    expect(sent).toEqual(['batch', 'after']);
  });

  it('releases what waits when its share grows, and drops it when the run ends', () => {
    const pacer = new Pacer();
    pacer.setRate(10);
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) pacer.admit(1, () => sent.push(i));
    pacer.setRate(Infinity);
    expect(sent).toEqual([0, 1, 2, 3, 4]);

    pacer.setRate(10);
    const later: number[] = [];
    for (let i = 0; i < 5; i++) pacer.admit(1, () => later.push(i));
    pacer.clear();
    vi.advanceTimersByTime(10_000);
    expect(later).toEqual([]);
  });
});
