/**
 * Attack: a write flood whose history would fill the server's memory. Eight
 * clients loop `SET k <1 MB value>` with the longest wall clock a run may ask
 * for, and the tab that started it disconnects at once. Before history had a
 * budget, every argument was kept whole in the lab's history: RSS grew by
 * gigabytes in about a minute and the server died with every lab.
 *
 * Now: the sandbox keeps a prefix of each value, the run is stopped when it
 * passes its share of history (with the words a learner reads), the server's
 * memory stays bounded, and a bystander's tiny run still finishes quickly
 * and correctly while the flood goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEnded } from '@/lib/run';
import type { Lab } from '@/server/lab/lab';
import type { HistoryBudget } from '@/server/lab/history-log';
import { bystander, startAttackServer, value, type AttackServer } from './attack-fixture';

const FLOOD = [
  "import Redis from 'ioredis';",
  "const redis = new Redis({ host: 'redis-1.internal' });",
  "const big = 'x'.repeat(1024 * 1024);",
  'while (true) await redis.set(\'k\', big);',
].join('\n');

const KB = 1024;
const MB = 1024 * KB;

/**
 * A smaller budget than the default (16 MB a lab, 8 MB a run), so the cut comes within seconds: on a
 * loaded two-core machine the flood manages some 15 SETs a second, and with each 1 MB value kept as a
 * ~0.4 KB prefix, the default 8 MB share would outlast the 120 s wall clock. (That is the first line of
 * defence: the history grows by 0.4 KB per SET instead of 1 MB.) The budget's mechanics do not depend on its size.
 */
const BUDGET: HistoryBudget = { maxEvents: 100_000, maxBytes: 512 * KB, runEvents: 50_000, runBytes: 128 * KB };

/** Resolves once `condition` holds (checked every few ms), or fails after `timeoutMs`. */
async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('attack: a history flood from a tab that closes', () => {
  let attack: AttackServer;
  beforeAll(async () => {
    attack = await startAttackServer({ history: BUDGET });
  });
  afterAll(async () => {
    await attack?.close();
  });

  it('stops the run at its history share, keeps the server bounded, and a bystander is not hurt', async () => {
    const innocent = await bystander(attack);
    // Warm the bystander's lab (and a worker) before measuring anything.
    expect((await innocent.run()).ended.verdict.valid).toBe('held');

    global.gc?.();
    const before = process.memoryUsage();
    let peak = { rss: before.rss, heapUsed: before.heapUsed };
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = { rss: Math.max(peak.rss, m.rss), heapUsed: Math.max(peak.heapUsed, m.heapUsed) };
    }, 50);

    try {
      const attacker = await attack.tab();
      const { labId } = value(await attacker.emitWithAck('lab:join', {}));
      const lab = attack.server.labs.get(labId) as Lab;
      expect(lab).toBeDefined();
      // A second viewer of the same lab stays to read how the run ends; the attacker's tab goes away.
      const watcher = await attack.tab();
      value(await watcher.emitWithAck('lab:join', { labId }));
      const ended = new Promise<RunEnded>((resolve) => watcher.on('run:ended', (e) => resolve(e)));

      const started = value(await attacker.emitWithAck('run:start', { code: FLOOD, clients: 8, limits: { wallClockMs: 120_000 } }));
      attacker.disconnect();

      // The flood is under way: a good part of its share recorded.
      await waitFor(() => lab.history.runUsage(started.runId).bytes > 32 * KB, 60_000, 'the flood to record 32 KB of history');
      const during = await innocent.run();
      expect(during.ended.verdict.valid).toBe('held');
      expect(during.ms).toBeLessThan(2_000);

      const end = await ended;
      expect(end.runId).toBe(started.runId);
      expect(end.outcome.status).toBe('limit');
      expect(end.outcome.error).toBe('This run produced more than 128 KB of history (the limit per run), so it was stopped.');
      // Nothing was seen of the flood's end: the verdict may not claim "held".
      expect(end.verdict.valid).not.toBe('held');

      // The lab keeps at most its budget, and no more than the run's share (plus the events in flight when it was cut).
      expect(lab.history.bytes).toBeLessThanOrEqual(BUDGET.maxBytes);
      expect(lab.history.runUsage(started.runId).bytes).toBeLessThan(BUDGET.runBytes + 2 * KB);
      const recorded = lab.history.since(0).filter((e) => e.runId === started.runId);
      const message = recorded.find((e) => e.type === 'console' && e.client === 0);
      expect(message?.type === 'console' && message.text).toBe(end.outcome.error);
      // Every recorded SET carries a prefix of its value, never the megabyte.
      const sets = recorded.filter((e) => e.type === 'redis' && e.phase === 'invoke');
      expect(sets.length).toBeGreaterThan(50);
      for (const e of sets) if (e.type === 'redis' && e.phase === 'invoke') expect(e.args[1]?.length ?? 0).toBeLessThan(300);
      watcher.disconnect();
    } finally {
      clearInterval(sampler);
    }
    const growth = { rss: (peak.rss - before.rss) / MB, heapUsed: (peak.heapUsed - before.heapUsed) / MB };
    console.log(`[history-flood] peak growth during the flood: RSS +${growth.rss.toFixed(0)} MB, heap +${growth.heapUsed.toFixed(0)} MB`);
    expect(growth.rss).toBeLessThan(400);
    expect(growth.heapUsed).toBeLessThan(400);
  }, 180_000);
});
