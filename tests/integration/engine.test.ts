/**
 * The lab engine against real redis-server processes: nodes, links, nemesis,
 * monitor and ACLs. No mocks: every assertion is about a real process or a
 * real TCP path.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '@/lib/history';
import { LabOperationError } from '@/lib/result';
import { alive, fault, learnerDirect, learnerVia, startLab, tcpConnect, waitFor } from './lab-fixture';

async function rejection(promise: Promise<unknown>): Promise<LabOperationError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LabOperationError);
  return error as LabOperationError;
}

describe('a lab of five independent masters', () => {
  it('starts five nodes on distinct ports other than 6379, each answering PING through its links', async () => {
    const lab = await startLab();
    expect(lab.nodes.map((n) => n.state)).toEqual(['up', 'up', 'up', 'up', 'up']);
    const ports = new Set(lab.nodes.map((n) => n.port));
    expect(ports.size).toBe(5);
    expect(ports.has(6379)).toBe(false);
    for (const node of [1, 2, 3, 4, 5]) {
      const redis = await learnerVia(lab, 1, node);
      expect(await redis.ping()).toBe('PONG');
    }
  });

  it('kill: the node reads down at once, its process is gone, connections are refused; restart brings it back', async () => {
    const lab = await startLab();
    const pid = lab.node(2).pid!;
    const events: HistoryEvent[] = [];
    lab.history.subscribe((e) => events.push(e));
    await fault(lab, 'node-kill', { node: 2 });
    expect(lab.node(2).state).toBe('down');
    expect(alive(pid)).toBe(false);
    expect(events.some((e) => e.type === 'node' && e.node === 2 && e.state === 'down' && e.reason.includes('SIGKILL'))).toBe(true);
    expect(events.filter((e) => e.type === 'nemesis').map((e) => e.type === 'nemesis' && e.phase)).toEqual(['invoke', 'ok']);
    expect(await tcpConnect(lab.node(2).port)).toBe('ECONNREFUSED');
    const viaLink = await learnerVia(lab, 1, 2);
    await expect(viaLink.ping()).rejects.toThrow();
    await fault(lab, 'node-restart', { node: 2 });
    expect(lab.node(2).state).toBe('up');
    const again = await learnerVia(lab, 1, 2);
    expect(await again.ping()).toBe('PONG');
  });

  it('restart without persistence loses a lock key; with aof-always it keeps it', async () => {
    const lab = await startLab({ nodes: 2 });
    const a = await learnerVia(lab, 1, 1);
    await a.set('lock:invoice:42', 'token-a', 'PX', 60_000, 'NX');
    await fault(lab, 'node-kill', { node: 1 });
    await fault(lab, 'node-restart', { node: 1 });
    const a2 = await learnerVia(lab, 1, 1);
    expect(await a2.get('lock:invoice:42')).toBeNull();

    await fault(lab, 'node-kill', { node: 2 });
    await fault(lab, 'node-restart', { node: 2, persistence: 'aof-always' });
    const b = await learnerVia(lab, 1, 2);
    await b.set('lock:invoice:42', 'token-b', 'PX', 60_000, 'NX');
    await fault(lab, 'node-kill', { node: 2 });
    await fault(lab, 'node-restart', { node: 2 });
    const b2 = await learnerVia(lab, 1, 2);
    expect(await b2.get('lock:invoice:42')).toBe('token-b');
    expect(await b2.pttl('lock:invoice:42')).toBeGreaterThan(50_000);
  });

  it('pause: commands time out; resume: they are answered', async () => {
    const lab = await startLab({ nodes: 1 });
    const redis = await learnerVia(lab, 1, 1, 200);
    expect(await redis.ping()).toBe('PONG');
    await fault(lab, 'node-pause', { node: 1 });
    expect(lab.node(1).state).toBe('paused');
    await expect(redis.ping()).rejects.toThrow(/timed out/i);
    await fault(lab, 'node-resume', { node: 1 });
    expect(lab.node(1).state).toBe('up');
    expect(await redis.ping()).toBe('PONG');
  });

  it('a link cut for client 1 leaves client 2\'s path to the same node working', async () => {
    const lab = await startLab({ nodes: 1 });
    const one = await learnerVia(lab, 1, 1, 200);
    const two = await learnerVia(lab, 2, 1, 200);
    expect(await one.ping()).toBe('PONG');
    await fault(lab, 'link-cut', { client: 1, node: 1, mode: 'blackhole' });
    await expect(one.ping()).rejects.toThrow(/timed out/i);
    expect(await two.ping()).toBe('PONG');
    await fault(lab, 'link-heal', { client: 1, node: 1 });
    expect(await waitFor(() => one.ping().catch(() => null), 'the healed link to answer')).toBe('PONG');

    await fault(lab, 'link-cut', { client: 1, node: 1, mode: 'refuse' });
    expect(await tcpConnect(await lab.links.portFor(1, 1))).toBe('ECONNREFUSED');
    expect(await two.ping()).toBe('PONG');
    await fault(lab, 'link-heal', { client: 1, node: 1 });
    const back = await learnerVia(lab, 1, 1);
    expect(await back.ping()).toBe('PONG');
  });

  it("drops one client's connections to every node, and only that client's; its links stay open for a reconnect", async () => {
    const lab = await startLab({ nodes: 2 });
    const [a1, a2, b1] = await Promise.all([learnerVia(lab, 1, 1), learnerVia(lab, 1, 2), learnerVia(lab, 2, 1)]);
    await Promise.all([a1.ping(), a2.ping(), b1.ping()]);
    const closed = [a1, a2].map((r) => new Promise((resolve) => r.once('close', resolve)));
    let bystanderClosed = false;
    b1.once('close', () => (bystanderClosed = true));

    expect(await fault(lab, 'client-disconnect', { client: 1 })).toEqual({ client: 1 });
    await Promise.all(closed);
    expect(await b1.ping()).toBe('PONG');
    expect(bystanderClosed).toBe(false);
    const again = await learnerVia(lab, 1, 1);
    expect(await again.ping()).toBe('PONG');
    const done = lab.history.since(0).find((e) => e.type === 'nemesis' && e.op === 'client-disconnect' && e.phase === 'ok');
    expect(done).toMatchObject({ target: 'Client 1', client: 1 });

    expect((await rejection(fault(lab, 'client-disconnect', { client: 9 }))).code).toBe('not-found');
    expect((await rejection(fault(lab, 'client-disconnect', { client: 1, node: 1 }))).code).toBe('invalid-input');
  });

  it('a delayed link adds at least the delay to a round trip', async () => {
    const lab = await startLab({ nodes: 1 });
    const redis = await learnerVia(lab, 1, 1, 2_000);
    await redis.ping();
    await fault(lab, 'link-delay', { client: 1, node: 1, delayMs: 60 });
    const started = performance.now();
    await redis.ping();
    // Applied each way: a round trip pays it twice.
    expect(performance.now() - started).toBeGreaterThanOrEqual(120);
    expect(lab.links.view(1, 1)).toMatchObject({ delayMs: 60, jitterMs: 0, cut: null });
  });

  it('a link with jitter, and one whose delay is lifted mid-stream, still delivers every byte in order', async () => {
    const lab = await startLab({ nodes: 1 });
    const redis = await learnerVia(lab, 1, 1, 5_000);
    await redis.ping();
    await fault(lab, 'link-delay', { client: 1, node: 1, delayMs: 5, jitterMs: 30 });
    // Each INCR is its own write a moment after the last, so its own chunk through the link: a chunk that
    // overtook another would hand ioredis replies in the wrong order (or corrupt the stream), and the counts
    // would not read 1..n. The delay is lifted while chunks are still held.
    const spaced = async (n: number) => {
      const replies: Promise<number>[] = [];
      for (let i = 0; i < n; i++) {
        replies.push(redis.incr('order'));
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return replies;
    };
    const first = await spaced(150);
    await fault(lab, 'link-delay', { client: 1, node: 1, delayMs: 0, jitterMs: 0 });
    const second = await spaced(50);
    expect(await Promise.all([...first, ...second])).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });

  it('a clock jump shortens PTTL and expires keys whose TTL was shorter than the jump', async () => {
    const lab = await startLab({ nodes: 1 });
    const redis = await learnerVia(lab, 1, 1);
    await redis.set('lock:long', 'a', 'PX', 60_000);
    await redis.set('lock:short', 'b', 'PX', 2_000);
    await redis.set('plain', 'c');
    const view = await fault(lab, 'node-clock-jump', { node: 1, jumpMs: 5_000 });
    const pttl = await redis.pttl('lock:long');
    expect(pttl).toBeLessThanOrEqual(55_000);
    expect(pttl).toBeGreaterThan(50_000);
    expect(await redis.exists('lock:short')).toBe(0);
    expect(await redis.pttl('plain')).toBe(-1);
    expect(view.clockJumpMs).toBe(5_000);
  });

  it('refuses a fault that is already in effect, and invalid input, changing nothing', async () => {
    const lab = await startLab({ nodes: 2 });
    await fault(lab, 'node-pause', { node: 1 });
    expect((await rejection(fault(lab, 'node-pause', { node: 1 }))).code).toBe('conflict');
    await fault(lab, 'node-resume', { node: 1 });
    await fault(lab, 'link-cut', { client: 1, node: 2 });
    expect((await rejection(fault(lab, 'link-cut', { client: 1, node: 2 }))).message).toMatch(/already cut/);
    expect((await rejection(fault(lab, 'node-restart', { node: 1 }))).message).toMatch(/kill it before/);

    const before = lab.history.length;
    const bad: [string, Promise<unknown>][] = [
      ['unknown node', fault(lab, 'node-kill', { node: 5 })],
      ['node out of range', fault(lab, 'node-kill', { node: 99 })],
      ['negative delay', fault(lab, 'node-restart', { node: 1, delayMs: -5 })],
      ['wrong type', fault(lab, 'node-pause', { node: '1' })],
      ['unknown field', fault(lab, 'node-kill', { node: 1, force: true })],
      ['missing payload', fault(lab, 'node-kill', undefined)],
      ['bad cut mode', fault(lab, 'link-cut', { client: 1, node: 1, mode: 'explode' })],
    ];
    for (const [what, promise] of bad) {
      const error = await rejection(promise);
      expect(['invalid-input', 'not-found'], what).toContain(error.code);
      expect(error.message.length, what).toBeGreaterThan(10);
    }
    expect(lab.history.length).toBe(before);
    expect(lab.nodes.map((n) => n.state)).toEqual(['up', 'up']);
  });

  it('the learner user gets NOPERM for admin and dangerous commands, also from inside EVAL', async () => {
    const lab = await startLab({ nodes: 1 });
    const redis = await learnerVia(lab, 1, 1);
    const forbidden: [string, ...string[]][] = [
      ['CONFIG', 'GET', 'maxmemory'],
      ['FLUSHALL'],
      ['DEBUG', 'SLEEP', '0'],
      ['SHUTDOWN', 'NOSAVE'],
      ['REPLICAOF', 'NO', 'ONE'],
      ['MONITOR'],
      ['KEYS', '*'],
    ];
    for (const [command, ...args] of forbidden) {
      // DEBUG is also off for everyone (enable-debug-command no); either way the node refuses it.
      await expect(redis.call(command, ...args), command).rejects.toThrow(/NOPERM|DEBUG command not allowed/);
      const lua = `return redis.call(${[command, ...args].map((a) => `'${a}'`).join(', ')})`;
      await expect(redis.eval(lua, 0), `${command} in EVAL`).rejects.toThrow(/NOPERM|can't run this command|not allowed from script/i);
    }
    // Any key is the learner's: the nodes belong to this lab alone.
    expect(await redis.set('lock:invoice:42', 't', 'PX', 1000, 'NX')).toBe('OK');
    expect(lab.node(1).state).toBe('up');
    // The default user is off.
    const anonymous = learnerDirect(lab, 1);
    anonymous.options.username = undefined;
    anonymous.options.password = undefined;
    await expect(anonymous.ping()).rejects.toThrow(/NOAUTH|WRONGPASS|NOPERM|default/i);
  });

  it('orders faults per target: a slow op on Node 1 does not hold up Node 2; a lab-wide op waits for both', async () => {
    const lab = await startLab({ nodes: 1 });
    const order: string[] = [];
    let finishSlow: (() => void) | undefined;
    const slow = lab.serial(() => new Promise<void>((resolve) => (finishSlow = () => resolve(void order.push('node 1')))), 'Node 1');
    await lab.serial(async () => void order.push('node 2'), 'Node 2');
    const wide = lab.serial(async () => void order.push('lab-wide'));
    const after = lab.serial(async () => void order.push('node 2 again'), 'Node 2');
    expect(order).toEqual(['node 2']);
    finishSlow!();
    await Promise.all([slow, wide, after]);
    expect(order).toEqual(['node 2', 'node 1', 'lab-wide', 'node 2 again']);
  });

  it('the monitor shows a lock key with its holder token and TTL, and its deletion', async () => {
    const lab = await startLab({ nodes: 1 });
    const redis = await learnerVia(lab, 1, 1);
    const changes: number[] = [];
    lab.on('nodes', (ids) => changes.push(...ids));
    await redis.set('lock:invoice:42', 'token-abc', 'PX', 5_000, 'NX');
    const view = await waitFor(() => lab.nodeView(1).keys.find((k) => k.key === 'lock:invoice:42'), 'the key in the node view', 1_000);
    expect(view.value).toBe('token-abc');
    expect(view.pttl).toBeGreaterThan(4_000);
    expect(view.pttl).toBeLessThanOrEqual(5_000);
    expect(changes).toContain(1);
    await redis.del('lock:invoice:42');
    await waitFor(() => lab.nodeView(1).keys.length === 0, 'the key to disappear from the view', 1_000);
  });
});

describe('a master with an asynchronous replica', () => {
  it('is in sync when the lab (or a restore) is ready: a write WAIT confirms is on the replica at once, even with replication 80 ms behind', async () => {
    const lab = await startLab({ kind: 'replicated', nodes: 2 });
    for (const round of ['started', 'restored']) {
      if (round === 'restored') await lab.restore();
      await fault(lab, 'replication-delay', { delayMs: 80 });
      // WAIT blocks for the replica's acknowledgement (80 ms each way, longer on a busy machine): the
      // connections' own timeouts must outlast it, or the test measures the machine, not the sync.
      const master = await learnerVia(lab, 1, 1, 10_000);
      const replica = await learnerVia(lab, 1, 2, 10_000);
      await master.set('lock:k', round, 'PX', 60_000);
      expect(Number(await master.call('WAIT', '1', '5000')), round).toBe(1);
      // Before a fresh replica had finished its first sync, WAIT could count it while it still read null.
      expect(await replica.get('lock:k'), round).toBe(round);
    }
  });

  it('replicates writes, and failover with replication held back loses the lock', async () => {
    const lab = await startLab({ kind: 'replicated', nodes: 2 });
    expect(lab.nodes.map((n) => n.role)).toEqual(['master', 'replica']);
    const master = await learnerVia(lab, 1, 1);
    const replica = await learnerVia(lab, 1, 2);
    await master.set('lock:before', 'a', 'PX', 60_000);
    expect(await waitFor(() => replica.get('lock:before'), 'replication of lock:before')).toBe('a');

    await fault(lab, 'replication-hold', {});
    await master.set('lock:invoice:42', 'token-a', 'PX', 60_000, 'NX');
    expect(await master.get('lock:invoice:42')).toBe('token-a');
    expect(await replica.get('lock:invoice:42')).toBeNull();

    const views = await fault(lab, 'failover', {});
    expect(views.map((v) => [v.state, v.role])).toEqual([
      ['down', 'master'],
      ['up', 'master'],
    ]);
    const promoted = await learnerVia(lab, 2, 2);
    expect(await promoted.get('lock:before')).toBe('a');
    expect(await promoted.get('lock:invoice:42')).toBeNull();
    // A second client now takes "the same" lock: two holders.
    expect(await promoted.set('lock:invoice:42', 'token-b', 'PX', 60_000, 'NX')).toBe('OK');
    expect((await rejection(fault(lab, 'failover', {}))).code).toBe('conflict');
  });
});
