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
import { bystander, runToEnd, startAttackServer, value, type AttackServer } from './attack-fixture';

const FLOOD = [
  "import Redis from 'ioredis';",
  "const redis = new Redis({ host: 'redis-1.internal' });",
  "const big = 'x'.repeat(1024 * 1024);",
  // A SET that times out (1 s by default; a loaded machine gets there) must not end the flood.
  'while (true) { try { await redis.set(\'k\', big); } catch { /* on with the flood */ } }',
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
async function waitFor(condition: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
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
    const quiet = await innocent.run();
    expect(quiet.ended.verdict.valid).toBe('held');

    global.gc?.();
    const before = process.memoryUsage();
    let peak = { rss: before.rss, heapUsed: before.heapUsed };
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = { rss: Math.max(peak.rss, m.rss), heapUsed: Math.max(peak.heapUsed, m.heapUsed) };
    }, 50);

    try {
      // Two tabs of the attacker's browser: a lab is joined only by the tabs of the browser it belongs to.
      const cookie = await attack.browser();
      const attacker = await attack.tab({ cookie });
      const { labId } = value(await attacker.emitWithAck('lab:join', {}));
      const lab = attack.server.labs.get(labId) as Lab;
      expect(lab).toBeDefined();
      // A second viewer of the same lab stays to read how the run ends; the attacker's tab goes away.
      const watcher = await attack.tab({ cookie });
      value(await watcher.emitWithAck('lab:join', { labId }));
      const ended = new Promise<RunEnded>((resolve) => watcher.on('run:ended', (e) => resolve(e)));

      const started = value(await attacker.emitWithAck('run:start', { code: FLOOD, clients: 8, limits: { wallClockMs: 120_000 } }));
      attacker.disconnect();

      // The flood is under way: a good part of its share recorded.
      let ending: RunEnded | null = null;
      void ended.then((e) => (ending = e));
      await waitFor(() => lab.history.runUsage(started.runId).bytes > 32 * KB || ending !== null, 60_000, () => {
        const last = lab.history.since(lab.history.firstSeq + lab.history.length - 3);
        return `the flood to record 32 KB of history (it has ${JSON.stringify(lab.history.runUsage(started.runId))}; last events ${JSON.stringify(last).slice(0, 600)})`;
      });
      expect(ending).toBeNull();
      const during = await innocent.run();
      console.log(`[history-flood] bystander's tiny run: ${quiet.ms.toFixed(0)} ms before the flood, ${during.ms.toFixed(0)} ms during it`);
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
      const message = recorded.find((e) => e.type === 'console' && e.client === 0 && e.level === 'error');
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

describe('attack: the same flood against the default budget', () => {
  let attack: AttackServer;
  beforeAll(async () => {
    attack = await startAttackServer();
  });
  afterAll(async () => {
    await attack?.close();
  });

  it('keeps each 1 MB value as a short prefix, so the heap stays flat for the whole run', async () => {
    const tab = await attack.tab();
    const { labId } = value(await tab.emitWithAck('lab:join', {}));
    const lab = attack.server.labs.get(labId) as Lab;
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 50);
    try {
      // 15 s of flood: before history had a budget, every SET kept its megabyte (≥ +9 MB of heap a second here).
      const end = await runToEnd(tab, { code: FLOOD, clients: 8, limits: { wallClockMs: 15_000 } });
      expect(end.outcome.status).toBe('timeout');
      const sets = lab.history.since(0).filter((e) => e.runId === end.runId && e.type === 'redis' && e.phase === 'invoke');
      expect(sets.length).toBeGreaterThan(20);
      expect(lab.history.bytes).toBeLessThan(sets.length * 2 * KB);
    } finally {
      clearInterval(sampler);
    }
    const growth = (peak - before) / MB;
    console.log(`[history-flood] default budget, 15 s of flood: heap +${growth.toFixed(0)} MB, history ${(lab.history.bytes / KB).toFixed(0)} KB`);
    expect(growth).toBeLessThan(100);
  }, 120_000);
});
