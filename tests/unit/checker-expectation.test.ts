import { describe, expect, it } from 'vitest';
import { check, unmetExpectation } from '@/lib/checker';
import { history } from './helpers/history-builder';

describe('a verdict against a scenario’s expectation', () => {
  it('says which check made the verdict other than expected', () => {
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '100'], 'OK').at(50).redis(1, 1, 'DEL', ['lock'], 1);
    for (let t = 100; t <= 3000; t += 300) h.at(t).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '100'], null);
    const verdict = check(h.build(), { livenessBoundMs: 1000 });
    expect(unmetExpectation(verdict, { verdict: 'held' })).toBe('the verdict is violated (liveness), not held');
    expect(unmetExpectation(verdict, { verdict: 'violated', check: 'liveness' })).toBeNull();
  });

  it('names no check when the verdict held where a break was expected (every check held)', () => {
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '100'], 'OK').at(50).redis(1, 1, 'DEL', ['lock'], 1);
    const verdict = check(h.build(), { livenessBoundMs: 1000 });
    expect(unmetExpectation(verdict, { verdict: 'violated' })).toBe('the verdict is held, not violated');
  });
});
