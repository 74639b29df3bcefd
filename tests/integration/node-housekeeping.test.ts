/**
 * An idle lab costs little: its nodes do their housekeeping (active expiry)
 * once a second, and ten times a second while a run goes, so a lock key's
 * expiry still shows on the timeline within ~100 ms of its TTL. Read from the
 * nodes themselves (CONFIG GET hz), before, during and after a run, and for a
 * node that was down or paused when the run started.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from '@/lib/commands';
import type { RunEnded } from '@/lib/run';
import type { Lab } from '@/server/lab/lab';
import { IDLE_HZ, RUN_HZ } from '@/server/cluster/redis-config';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import { fault, startLab, waitFor } from './lab-fixture';

let pool: SandboxPool;
beforeAll(async () => {
  pool = createSandboxPool({ warmWorkers: 1 });
  await pool.whenWarm();
});
afterAll(async () => {
  await pool?.close();
});

async function hzOf(lab: Lab, node: number): Promise<number> {
  const control = lab.nodes[node - 1]?.controlClient;
  if (!control) throw new Error(`Node ${node} has no control connection`);
  const reply = (await control.call('CONFIG', 'GET', 'hz')) as string[];
  return Number(reply[1]);
}

const hzOfAll = (lab: Lab) => Promise.all(lab.nodes.map((n) => hzOf(lab, n.id)));

/** Holds its clients until the test lets them go (a key the test deletes), so "during the run" is a state, not a moment. */
const HELD_PROGRAM = `
import Redis from 'ioredis';
import lab from 'lab';
const redis = new Redis({ host: 'redis-1.internal' });
await redis.set('gate', 'closed');
lab.log('waiting');
while ((await redis.get('gate')) !== null) await lab.sleep(10);
await redis.quit();
`;

describe('node housekeeping follows the lab', () => {
  it('runs at IDLE_HZ while idle and RUN_HZ while a run goes, on every node, restarted or resumed ones too', async () => {
    const lab = await startLab({ nodes: 3 });
    expect(await hzOfAll(lab)).toEqual([IDLE_HZ, IDLE_HZ, IDLE_HZ]);

    await fault(lab, 'node-kill', { node: 2 });
    await fault(lab, 'node-pause', { node: 3 });
    const runs = new LabRuns(lab, pool);
    const ended = new Promise<RunEnded>((resolve) => runs.once('ended', resolve));
    await runs.start(parseCommand('run:start', { code: HELD_PROGRAM, clients: 1 }));
    await waitFor(() => lab.history.since().some((e) => e.type === 'console' && e.text === 'waiting'), 'the program to hold');
    expect(await hzOf(lab, 1)).toBe(RUN_HZ);

    // A node down when the run started comes back at the run's rate; a paused one takes it when resumed.
    await fault(lab, 'node-restart', { node: 2 });
    await fault(lab, 'node-resume', { node: 3 });
    await waitFor(async () => (await hzOf(lab, 3)) === RUN_HZ, 'the resumed node to keep time for the run');
    expect(await hzOfAll(lab)).toEqual([RUN_HZ, RUN_HZ, RUN_HZ]);

    await lab.nodes[0]!.controlClient!.del('gate');
    expect((await ended).outcome.status).toBe('completed');
    await waitFor(async () => (await hzOfAll(lab)).every((hz) => hz === IDLE_HZ), 'every node back at the idle rate');
  });
});
