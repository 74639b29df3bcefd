import { describe, expect, it } from 'vitest';
import { ItemDurations, itemKey, takeNext, takeNextTargeted } from '@/server/grading/plan-dealing';

// Two probes, a long targeted crash, then two scenarios: the shape of lesson 8's plan.
const plan = [{ targeted: true }, { targeted: true }, { targeted: true }, { targeted: false }, { targeted: false }];
const lengths = new Map([
  [0, 1_000],
  [1, 2_500],
  [2, 8_000],
  [3, 3_000],
  [4, 9_000],
]);

describe('takeNext', () => {
  it('gives the learner’s lab the longest targeted item, where a failure needs no second play', () => {
    const queue = [0, 1, 2, 3, 4];
    expect(takeNext(queue, plan, true, (i) => lengths.get(i))).toBe(2);
    expect(queue).toEqual([0, 1, 3, 4]);
  });

  it('gives a spare lab the first item in plan order (short probes first)', () => {
    const queue = [0, 1, 2, 3, 4];
    expect(takeNext(queue, plan, false, (i) => lengths.get(i))).toBe(0);
    expect(takeNext(queue, plan, false, (i) => lengths.get(i))).toBe(1);
    expect(queue).toEqual([2, 3, 4]);
  });

  it('gives the learner’s lab the longest of any kind once no targeted item is left', () => {
    const queue = [3, 4];
    expect(takeNext(queue, plan, true, (i) => lengths.get(i))).toBe(4);
  });

  it('keeps the plan’s order while nothing has been measured', () => {
    const queue = [0, 1, 2, 3, 4];
    expect(takeNext(queue, plan, true, () => undefined)).toBe(0);
    expect(takeNext(queue, plan, true, () => undefined)).toBe(1);
  });

  it('answers nothing when the plan is played out', () => {
    expect(takeNext([], plan, true, () => undefined)).toBeUndefined();
  });
});

describe('ItemDurations', () => {
  it('averages what passing runs took, so one odd run does not swing the order', () => {
    const durations = new ItemDurations();
    const key = itemKey('choosing-a-lock', 'crash-mid-report', 1);
    expect(durations.estimate(key)).toBeUndefined();
    durations.learn(key, 8_000);
    expect(durations.estimate(key)).toBe(8_000);
    durations.learn(key, 18_000);
    const after = durations.estimate(key)!;
    expect(after).toBeGreaterThan(8_000);
    expect(after).toBeLessThan(13_000);
  });

  it('ignores figures that are not a length of time', () => {
    const durations = new ItemDurations();
    durations.learn('a', Number.NaN);
    durations.learn('b', -5);
    expect(durations.estimate('a')).toBeUndefined();
    expect(durations.estimate('b')).toBeUndefined();
  });

  it('keeps a bounded number of items, forgetting the least recently measured', () => {
    const durations = new ItemDurations(3);
    for (const k of ['a', 'b', 'c']) durations.learn(k, 1);
    durations.learn('a', 2); // measured again: now the most recent
    durations.learn('d', 1);
    expect(durations.estimate('b')).toBeUndefined();
    expect(durations.estimate('a')).toBeDefined();
    expect(durations.estimate('c')).toBeDefined();
    expect(durations.estimate('d')).toBeDefined();
  });
});

describe('takeNextTargeted', () => {
  it('after an untargeted failure, gives only the targeted items left, in plan order, then nothing', () => {
    const queue = [3, 1, 4, 2];
    expect(takeNextTargeted(queue, plan)).toBe(1);
    expect(takeNextTargeted(queue, plan)).toBe(2);
    expect(takeNextTargeted(queue, plan)).toBeUndefined();
    // The untargeted ones stay queued: played after all if the failure does not stand.
    expect(queue).toEqual([3, 4]);
  });
});
