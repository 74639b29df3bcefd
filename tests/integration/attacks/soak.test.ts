/**
 * The soak's two-minute version (the full one is `npm run soak`, 30 min):
 * twenty labs running a correct lock program again and again under random
 * faults on the nodes it does not lock on. Every verdict must say held, the
 * server's memory and file descriptors must not grow after warm-up, and no
 * redis-server may outlive the server.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { soak } from '@/bench/soak';

describe('soak (two minutes, twenty labs)', () => {
  it('holds every verdict, stays flat in memory and descriptors, and leaves no redis-server behind', async () => {
    // A verdict that is not held leaves its run's history in test-results/ (the temp folder of a test run is removed), named in the failure.
    const report = await soak({ minutes: 2, labs: 20, seed: 7, log: (line) => console.log(line), keepFailuresIn: path.resolve('test-results', 'soak-failures') });
    console.log(`[soak] ${report.runs} runs, ${report.faults} faults, RSS ${report.rss.first.toFixed(0)} → ${report.rss.second.toFixed(0)} MB, fds ${report.fdCount.first} → ${report.fdCount.second}`);
    expect(report.runs).toBeGreaterThan(20);
    expect(report.faults).toBeGreaterThan(20);
    expect(report.notHeld).toEqual([]);
    expect(report.verdicts).toEqual({ held: report.runs });
    // Two minutes hold only a few sawteeth of the server's heap: the medians of its halves swung 0.95–1.13 over six
    // runs of a server that does not grow. The ±10 % bound is the 30-minute soak's (`npm run soak`: +7.3 %), where
    // each half is 15 minutes; here ±20 % still fails by far a leak like the (1.5 → 4.2 GB in 69 s).
    expect(report.rss.ratio).toBeGreaterThan(0.8);
    expect(report.rss.ratio).toBeLessThan(1.2);
    expect(report.fdCount.ratio).toBeGreaterThan(0.9);
    expect(report.fdCount.ratio).toBeLessThan(1.1);
    expect(report.leftoverNodes).toBe(0);
  }, 240_000);
});
