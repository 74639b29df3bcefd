/**
 * An idle lab costs little: its nodes do their housekeeping (active expiry)
 * once a second, and ten times a second while a run goes, so a lock key's
 * expiry still shows on the timeline within ~100 ms of its TTL. Read from the
 * nodes themselves (CONFIG GET hz), before, during and after a run, and for a
 * node that was down or paused when the run started.
 *
 * The lab watches an idle lab's nodes almost without a command (the key
 * monitor samples when a key can expire, and every few seconds; the guard
 * reads memory from /proc), and as closely as ever while a run goes: counted
 * by the node itself (INFO's total_commands_processed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from '@/lib/commands';
import type { RunEnded } from '@/lib/run';
import type { Lab } from '@/server/lab/lab';
import { IDLE_HZ, RUN_HZ } from '@/server/cluster/redis-config';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import { QUIET_GRACE_MS } from '@/server/cluster/node-guard';
import { fault, learnerVia, startLab, waitFor } from './lab-fixture';

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

/** Commands the node has processed (a Lua sample counts its EVALSHA and every command inside); the INFO itself is counted in the next one. */
async function commandsOf(lab: Lab, node: number): Promise<number> {
  const control = lab.nodes[node - 1]?.controlClient;
  if (!control) throw new Error(`Node ${node} has no control connection`);
  const match = /^total_commands_processed:(\d+)/m.exec(await control.info('stats'));
  if (!match) throw new Error('INFO stats has no total_commands_processed');
  return Number(match[1]);
}

/** Commands the node processed over `ms` of the lab's time, besides the two INFOs that count them. */
async function commandsOver(lab: Lab, node: number, ms: number): Promise<number> {
  const before = await commandsOf(lab, node);
  const until = lab.now() + ms;
  await waitFor(() => lab.now() > until, 'the observation window to pass', ms + 5_000, 50);
  return (await commandsOf(lab, node)) - before - 1;
}

/** Past the guard's grace after the lab went idle (or its nodes came up), the node has answered: the guard looks slowly from here. */
async function calm(lab: Lab, node: number): Promise<void> {
  const after = performance.now() + QUIET_GRACE_MS;
  await waitFor(() => lab.node(node).lastAnsweredAt > after, 'the node to answer after the guard\'s grace', QUIET_GRACE_MS + 5_000, 20);
}

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

describe('an idle lab is watched almost without a command, a lab with a run as closely as ever', () => {
  // 3 s of a node's commands: today's rhythm (a sample every 250 ms: an EVALSHA and the KEYS inside) is 24 of them.
  const WINDOW_MS = 3_000;

  it('samples an idle node only when something can change, then every 250 ms once a run goes, and slowly again after', async () => {
    const lab = await startLab({ nodes: 1 });
    await calm(lab, 1);
    const idle = await commandsOver(lab, 1, WINDOW_MS);
    // At most one safety-net sample (2 commands) and a guard PING or two.
    expect(idle).toBeLessThanOrEqual(5);

    const runEnded = await lab.runStarting();
    const busy = await commandsOver(lab, 1, WINDOW_MS);
    // Half of today's rhythm at least: the timer may fire late on a loaded machine, never this rarely.
    expect(busy).toBeGreaterThanOrEqual(12);

    runEnded();
    await calm(lab, 1);
    expect(await commandsOver(lab, 1, WINDOW_MS)).toBeLessThanOrEqual(5);
    console.log(`[housekeeping] node commands in ${WINDOW_MS / 1000} s: ${idle} idle, ${busy} with a run going`);
  });

  it('shows a key set with a TTL on an idle lab, and drops it from the view when it expires, with no further write', async () => {
    const lab = await startLab({ nodes: 1 });
    await calm(lab, 1);
    const redis = await learnerVia(lab, 1, 1);
    await redis.set('lock:short', 'token', 'PX', 400);
    redis.disconnect();
    const key = await waitFor(() => lab.nodeView(1).keys.find((k) => k.key === 'lock:short'), 'the key in the node view', 2_000);
    expect(key.pttl).toBeGreaterThan(0);
    expect(key.pttl).toBeLessThanOrEqual(400);
    // Well before the idle safety net (5 s): the sample after its expiry drops it.
    await waitFor(() => lab.nodeView(1).keys.length === 0, 'the expired key to leave the view', 2_500);
  });
});
