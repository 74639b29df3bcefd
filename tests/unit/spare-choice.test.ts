import { describe, expect, it } from 'vitest';
import { chooseSpare, HOST_SLACK, type SpareState } from '@/server/sandbox/spare-choice';

interface Spare extends SpareState {
  name: string;
}
const spare = (name: string, booted: boolean, hostRunning: number): Spare => ({ name, booted, hostRunning });
const choose = (spares: Spare[], fewestRunning: number) => chooseSpare(spares, (s) => s, fewestRunning)?.name ?? null;

describe('chooseSpare', () => {
  it('takes a booted spare in a busier host over one still booting in the least loaded host', () => {
    // What the grading bench showed: three booted spares passed over, and the run waited seconds for a new one.
    expect(choose([spare('booting', false, 2), spare('booted', true, 3)], 2)).toBe('booted');
  });

  it('takes the booted spare whose host runs fewest', () => {
    expect(choose([spare('a', true, 4), spare('b', true, 3), spare('c', true, 4)], 3)).toBe('b');
  });

  it('leaves a booted spare whose host runs more than HOST_SLACK runs over the least loaded', () => {
    expect(choose([spare('far', true, 1 + HOST_SLACK + 1)], 1)).toBeNull();
    expect(choose([spare('near', true, 1 + HOST_SLACK)], 1)).toBe('near');
    // A booting spare in the least loaded host is taken then: it is further along than a new worker.
    expect(choose([spare('far', true, 1 + HOST_SLACK + 1), spare('booting', false, 1)], 1)).toBe('booting');
  });

  it('boots a new worker rather than take a booting spare in a busier host', () => {
    expect(choose([spare('booting', false, 2)], 1)).toBeNull();
  });

  it('has nothing to take when there are no spares', () => {
    expect(choose([], 0)).toBeNull();
  });
});
