/**
 * A restore (what a scenario run, a check's runs and Explore start from) on
 * real nodes: every trace of the learner's last program is gone, whether the
 * nodes were emptied in place or replaced, and nodes that cannot be emptied
 * in place (down, paused, busy in a script) are replaced.
 */
import { describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import type { Lab } from '@/server/lab/lab';
import { DEFAULT_NODE_GUARD } from '@/server/cluster/node-guard';
import { fault, learnerVia, startLab, waitFor } from './lab-fixture';

/** What a learner's program can leave on a node, through its own connections. */
async function leaveTraces(lab: Lab, node: number): Promise<{ subscriber: Redis; inMulti: Redis; blocked: Redis }> {
  const redis = await learnerVia(lab, 1, node, 5_000);
  await redis.set('lock:stale', 'old-holder', 'PX', 60_000);
  await redis.set('counter', '41');
  await redis.script('LOAD', "return redis.call('GET', KEYS[1])");
  await redis.call('FUNCTION', 'LOAD', "#!lua name=leftover\nredis.register_function('leftover', function() return 1 end)");
  const subscriber = await learnerVia(lab, 2, node, 5_000);
  await subscriber.subscribe('news');
  const inMulti = await learnerVia(lab, 3, node, 5_000);
  await inMulti.multi({ pipeline: false });
  await inMulti.set('queued', 'written-after-the-restore');
  const blocked = await learnerVia(lab, 1, node, 60_000);
  blocked.blpop('jobs', 0).catch(() => undefined);
  return { subscriber, inMulti, blocked };
}

async function expectEmpty(lab: Lab, node: number): Promise<void> {
  const control = lab.node(node).controlClient!;
  expect(await control.info('keyspace'), `Node ${node}: no key in any database`).not.toMatch(/^db\d+:/m);
  expect(await control.script('EXISTS', 'f0d1a9b8f7e6d5c4b3a2918273645546372819ab', '0'.repeat(40))).toEqual([0, 0]);
  expect(await control.call('FUNCTION', 'LIST'), `Node ${node}: no function`).toEqual([]);
  expect(await control.info('stats'), `Node ${node}: statistics start again`).toMatch(/^keyspace_hits:0\r?$/m);
  const clients = String(await control.call('CLIENT', 'LIST', 'TYPE', 'normal'));
  expect(clients, `Node ${node}: no learner connection left`).not.toMatch(/user=learner/);
  await waitFor(() => lab.nodeView(node).keys.length === 0, `Node ${node}'s card to show no key`);
  expect(lab.nodeView(node).clockJumpMs).toBe(0);
}

describe('a restore', () => {
  it('empties nodes that are up in place: no key, script, function, connection or statistic of the last program is left', async () => {
    const lab = await startLab({ nodes: 2 });
    const pids = lab.nodes.map((n) => n.pid);
    const loaded = await (await learnerVia(lab, 1, 1)).script('LOAD', "return redis.call('GET', KEYS[1])");
    const traces = await leaveTraces(lab, 1);
    await leaveTraces(lab, 2);
    await fault(lab, 'node-clock-jump', { node: 2, jumpMs: 1_000 });
    await waitFor(() => lab.nodeView(1).keys.some((k) => k.key === 'lock:stale'), 'the stale lock on the card');

    await lab.restore();

    // The same processes (the cheap path was taken), and nothing of the program left on them.
    expect(lab.nodes.map((n) => n.pid)).toEqual(pids);
    for (const node of [1, 2]) await expectEmpty(lab, node);
    expect(await lab.node(1).controlClient!.script('EXISTS', loaded as string)).toEqual([0]);
    // The transaction that was open cannot write into the next run: its connection is gone.
    await expect(traces.inMulti.exec()).rejects.toThrow();
    expect(await lab.node(1).controlClient!.exists('queued')).toBe(0);
    expect(lab.nodes.map((n) => n.state)).toEqual(['up', 'up']);
    expect(await (await learnerVia(lab, 1, 1)).ping()).toBe('PONG');
  });

  it('replaces nodes that are down or paused, and every node comes back up and empty', async () => {
    const lab = await startLab({ nodes: 3 });
    await leaveTraces(lab, 3);
    const before = lab.nodes.map((n) => n.pid);
    await fault(lab, 'node-kill', { node: 1 });
    await fault(lab, 'node-pause', { node: 2 });

    await lab.restore();

    expect(lab.nodes.map((n) => n.state)).toEqual(['up', 'up', 'up']);
    const after = lab.nodes.map((n) => n.pid);
    for (const [i, pid] of after.entries()) expect(pid, `Node ${i + 1} is a new process`).not.toBe(before[i]);
    for (const node of [1, 2, 3]) await expectEmpty(lab, node);
  });

  it('replaces a node still running a learner’s endless script (it cannot be emptied in place)', async () => {
    // The node guard would kill the script itself (SCRIPT KILL) within a second; here it waits, so the restore meets it.
    const lab = await startLab({ nodes: 1 }, 3, { ...DEFAULT_NODE_GUARD, periodMs: 3_600_000 });
    const before = lab.nodes[0]!.pid;
    const redis = await learnerVia(lab, 1, 1, 60_000);
    redis.eval('local i = 0 while true do i = i + 1 end', 0).catch(() => undefined);
    // The node is inside the script once it answers others BUSY.
    const probe = await learnerVia(lab, 2, 1, 5_000);
    await waitFor(() => probe.ping().then(() => false, (e: Error) => /BUSY/.test(e.message)), 'the node to be busy in the script');

    await lab.restore();

    expect(lab.nodes[0]!.state).toBe('up');
    expect(lab.nodes[0]!.pid).not.toBe(before);
    await expectEmpty(lab, 1);
  });
});
