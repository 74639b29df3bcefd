/**
 * Run budgets on a real server: a learner cannot raise the server's limits,
 * runs beyond what the server runs at once wait their turn (and are told so),
 * and a run that could never fit the memory budget is refused in words.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEnded } from '@/lib/run';
import { startAttackServer, value, type AttackServer, type Tab } from './attack-fixture';

let attack: AttackServer | null = null;
afterEach(async () => {
  await attack?.close();
  attack = null;
});

const SLEEPER = "import lab from 'lab';\nfor (;;) await lab.sleep(50);";
const SHORT = "import lab from 'lab';\nawait lab.sleep(300);\nconsole.log('done');";

function ended(tab: Tab, runId: () => string): Promise<RunEnded> {
  return new Promise((resolve) => {
    const on = (e: RunEnded & { labId: string }) => {
      if (e.runId !== runId()) return;
      tab.off('run:ended', on);
      resolve(e);
    };
    tab.on('run:ended', on);
  });
}

describe('run budgets', () => {
  it("clamps a raised wall-clock limit to the server's and says so in the run's console", async () => {
    attack = await startAttackServer({ runWallClockMs: 1_500 });
    const tab = await attack.tab();
    value(await tab.emitWithAck('lab:join', {}));
    const lines: string[] = [];
    tab.on('history:append', (batch) => {
      for (const e of batch.events) if (e.type === 'console') lines.push(e.text);
    });
    let id = '';
    const end = ended(tab, () => id);
    const started = performance.now();
    id = value(await tab.emitWithAck('run:start', { code: SLEEPER, clients: 2, limits: { wallClockMs: 120_000 } })).runId;
    const result = await end;
    expect(result.outcome.clients.every((c) => c.status === 'timeout')).toBe(true);
    expect(result.outcome.clients[0]?.error).toMatch(/wall-clock limit of 1500 ms/);
    // Ended by the server's 1.5 s, not the 120 s asked for (generous for a busy machine).
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(lines.join('\n')).toMatch(/asked for 120000 as its wall-clock time per client \(ms\); the server allows at most 1500/);
  });

  it('queues a run while the server runs as many as it may, tells the tab how many are ahead, then runs it', async () => {
    attack = await startAttackServer({ maxRuns: 1 });
    const first = await attack.tab();
    const second = await attack.tab();
    value(await first.emitWithAck('lab:join', {}));
    value(await second.emitWithAck('lab:join', {}));
    let firstId = '';
    const firstEnd = ended(first, () => firstId);
    firstId = value(await first.emitWithAck('run:start', { code: SLEEPER, clients: 1, limits: { wallClockMs: 2_000 } })).runId;
    const waited = new Promise<number>((resolve) => second.once('run:waiting', ({ ahead }) => resolve(ahead)));
    let secondId = '';
    const secondEnd = ended(second, () => secondId);
    const secondStart = second.emitWithAck('run:start', { code: SHORT, clients: 1 });
    expect(await waited).toBe(1);
    // Admitted only once the first run is over.
    const firstResult = await firstEnd;
    expect(firstResult.outcome.status).toBe('timeout');
    secondId = value(await secondStart).runId;
    const secondResult = await secondEnd;
    expect(secondResult.outcome.status).toBe('completed');
  });

  it('refuses a run that could never fit the memory budget, in words, and keeps serving smaller ones', async () => {
    attack = await startAttackServer({ runMemoryMb: 512 });
    const tab = await attack.tab();
    value(await tab.emitWithAck('lab:join', {}));
    const refused = await tab.emitWithAck('run:start', { code: SHORT, clients: 16 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'lab-full' } });
    expect(refused.ok ? '' : refused.error.message).toMatch(/would reserve \d+ MB, more than the 512 MB the server has for all runs: use fewer clients/);
    let id = '';
    const end = ended(tab, () => id);
    id = value(await tab.emitWithAck('run:start', { code: SHORT, clients: 2 })).runId;
    expect((await end).outcome.status).toBe('completed');
  });
});
