/** The browser's state of "Explore", and a fault space in words. */
import { describe, expect, it } from 'vitest';
import { emptyExploreData, reduceExploreFailed, reduceExploreProgress, reduceExploreRequested, reduceExploreResult } from '@/components/lab/explore-state';
import type { ExploreProgress } from '@/lib/explore';
import { describeSpace } from '@/lib/schedules';

const progress: ExploreProgress = { phase: 'searching', schedules: 4, shrinkRuns: 0, faults: null, elapsedMs: 3000, budgetMs: 20000 };

describe('explore state', () => {
  it('follows a search from the request to its answer, and ignores progress after it', () => {
    let s = reduceExploreRequested();
    expect(s.phase).toBe('exploring');
    s = reduceExploreProgress(s, progress);
    expect(s.progress).toEqual(progress);
    s = reduceExploreResult(s, { found: false, schedules: 9, seconds: 20, seed: 5, checked: ['client crashes'] });
    expect(s.phase).toBe('done');
    expect(reduceExploreProgress(s, { ...progress, schedules: 10 })).toBe(s);
    expect(reduceExploreFailed(s, 'stopped').error).toBe('stopped');
    expect(reduceExploreProgress(emptyExploreData(), progress).progress).toBeNull();
  });
});

describe('describeSpace', () => {
  it('says what a search drew its schedules from', () => {
    const words = describeSpace({
      clients: { min: 2, max: 3 },
      staggerMs: { min: 0, max: 200 },
      horizonMs: 3000,
      maxFaults: 2,
      faults: [{ kind: 'client-pause', minMs: 50, maxMs: 400 }, { kind: 'node-kill', downMs: { min: 3200, max: 5000 }, maxDown: 2 }],
    });
    expect(words).toEqual([
      '2–3 clients starting 0 ms–200 ms apart',
      'up to 2 faults per schedule, within 3 s of the start or of a moment of the run',
      'pauses of a client, 50 ms–400 ms',
      'node kills (at most 2 down at once), restarted after 3.2 s–5 s',
    ]);
  });
});
