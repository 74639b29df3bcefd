/**
 * The realtime layer with a real server on a random port, real labs and two
 * typed socket.io clients — what a browser tab does, minus the pixels.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { browserCookie, tabSoon } from '../helpers/browser-identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabSnapshot } from '@/lib/cluster';
import type { ClientToServerEvents, NodesDiff, ServerToClientEvents } from '@/lib/protocol';
import type { Result } from '@/lib/result';
import { createLabServer, type RunningLabServer } from '@/server/app-server';
import { configFromEnv } from '@/server/config';
import { alive, waitFor } from './lab-fixture';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

let server: RunningLabServer;
const sockets: Client[] = [];
const runRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-rt-'));

beforeAll(async () => {
  // A newcomer at a full server waits 1.5 s for a lab here (a minute by default), so a refusal comes quickly.
  server = await createLabServer(configFromEnv({ port: 0, web: false, maxLabs: 6, warmLabs: 0, labWaitMs: 1_500, runRoot }));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await server?.close();
  fs.rmSync(runRoot, { recursive: true, force: true });
});

/** A tab: of the browser whose `cookie` it carries (several tabs of one browser), else of a new browser. */
function connect(extraHeaders?: Record<string, string>, cookie?: string): Client {
  const socket: Client = tabSoon(server.url, { ...(extraHeaders ? { extraHeaders } : {}), ...(cookie ? { cookie } : {}) });
  sockets.push(socket);
  return socket;
}

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

describe('runs over the socket', () => {
  it('runs a program as clients, streams its history and verdict, and reports how it ended', async () => {
    const cookie = await browserCookie(server.url);
    const tab = connect(undefined, cookie);
    const { labId } = value(await tab.emitWithAck('lab:join', {}));
    const ended = new Promise<import('@/lib/run').RunEnded>((resolve) => tab.once('run:ended', resolve));
    const started: string[] = [];
    tab.on('run:started', (info) => started.push(info.runId));
    const jobs: string[] = [];
    tab.on('history:append', (batch) => {
      for (const e of batch.events) if (e.type === 'job') jobs.push(`${e.client}:${e.phase}`);
    });
    const program = [
      "import Redis from 'ioredis';",
      "import lab from 'lab';",
      "const redis = new Redis({ host: 'redis-1.internal' });",
      "const token = 'client-' + lab.client;",
      "while ((await redis.set('lock:report', token, 'PX', 5000, 'NX')) !== 'OK') await lab.sleep(5);",
      "await lab.job('report').run(20);",
      "await redis.eval(\"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end\", 1, 'lock:report', token);",
      'redis.disconnect();',
    ].join('\n');
    const info = value(await tab.emitWithAck('run:start', { code: program, clients: 3 }));
    expect(info.clients).toBe(3);
    const result = await ended;
    expect(result.runId).toBe(info.runId);
    expect(started).toEqual([info.runId]);
    expect(result.outcome.status).toBe('completed');
    expect(result.verdict.valid).toBe('held');
    await waitFor(() => jobs.length === 6, 'six job events (3 enters, 3 exits)');

    // A tab that reloads after the run sees how it ended, not an empty verdict panel.
    const reloaded = connect(undefined, cookie);
    const caughtUp = new Promise<import('@/lib/run').RunEnded>((resolve) => reloaded.once('run:ended', resolve));
    value(await reloaded.emitWithAck('lab:join', { labId }));
    expect((await caughtUp).runId).toBe(info.runId);

    // A client fault with no run in progress is refused with words, and a bad run is refused too.
    expect(await tab.emitWithAck('client:pause', { client: 1 })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const bad = await tab.emitWithAck('run:start', { code: '', clients: 99 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.issues?.map((i) => i.path).sort()).toEqual(['clients', 'code']);
  });
});

describe('realtime', () => {
  it('gives a tab its own lab with a snapshot, and a second tab of that browser the same snapshot', async () => {
    const cookie = await browserCookie(server.url);
    const a = connect(undefined, cookie);
    const snapshotEvents: LabSnapshot[] = [];
    a.on('lab:snapshot', (s) => snapshotEvents.push(s));
    const snapshot = value(await a.emitWithAck('lab:join', {}));
    expect(snapshot.nodes.map((n) => [n.label, n.state])).toEqual([
      ['Node 1', 'up'],
      ['Node 2', 'up'],
      ['Node 3', 'up'],
      ['Node 4', 'up'],
      ['Node 5', 'up'],
    ]);
    expect(snapshot.links).toHaveLength(3 * 5);
    await waitFor(() => snapshotEvents.length === 1, 'the lab:snapshot event');

    const b = connect(undefined, cookie);
    const again = value(await b.emitWithAck('lab:join', { labId: snapshot.labId }));
    expect(again.labId).toBe(snapshot.labId);
    expect(again.nodes.map((n) => n.port)).toEqual(snapshot.nodes.map((n) => n.port));
  });

  it('pushes a kill to both viewers as a diff, and the history to each', async () => {
    const cookie = await browserCookie(server.url);
    const a = connect(undefined, cookie);
    const b = connect(undefined, cookie);
    const { labId } = value(await a.emitWithAck('lab:join', {}));
    value(await b.emitWithAck('lab:join', { labId }));
    const diffs: Record<'a' | 'b', NodesDiff[]> = { a: [], b: [] };
    a.on('nodes:update', (d) => diffs.a.push(d));
    b.on('nodes:update', (d) => diffs.b.push(d));
    const seen: string[] = [];
    b.on('history:append', (batch) => {
      for (const e of batch.events) if (e.type === 'nemesis') seen.push(`${e.op}:${e.phase}`);
    });
    const killed = value(await a.emitWithAck('node:kill', { node: 3 }));
    expect(killed.state).toBe('down');
    for (const who of ['a', 'b'] as const) {
      const diff = await waitFor(() => diffs[who].find((d) => d.nodes.some((n) => n.id === 3 && n.state === 'down')), `${who} to see Node 3 down`);
      expect(diff.nodes.every((n) => n.id === 3)).toBe(true);
    }
    await waitFor(() => seen.includes('node-kill:ok'), 'the kill in the history');
  });

  it('refuses a malformed Explore or Check with a clear error, before any run or spare lab is started', async () => {
    const a = connect();
    const { labId } = value(await a.emitWithAck('lab:join', {}));
    const send = (event: string, payload: unknown) => (a as unknown as { emitWithAck(e: string, p: unknown): Promise<Result<unknown>> }).emitWithAck(event, payload);
    const code = 'lab.log("hi")';
    for (const payload of [{ code, seconds: 999 }, { code, seconds: 1 }, { code: '' }, { code, slug: '../etc' }, { code, seed: -1 }, { code, extra: true }, null]) {
      const result = await send('explore:run', payload);
      expect(result.ok, JSON.stringify(payload)).toBe(false);
      if (!result.ok) expect(result.error.code, JSON.stringify(payload)).toBe('invalid-input');
    }
    const labsBefore = server.labs.all().length;
    for (const [event, payload] of [['explore:run', { code, slug: 'no-such-lesson' }], ['exercise:check', { code, slug: 'no-such-lesson' }]] as const) {
      const result = await send(event, payload);
      expect(result).toMatchObject({ ok: false, error: { code: 'not-found' } });
    }
    expect(server.labs.all().length).toBe(labsBefore);
    // This server is small (6 labs) and the tests after this one need theirs: give the slot back.
    a.close();
    await server.labs.destroy(labId, 'test over');
  });

  it('answers malformed payloads with a clear error and keeps serving', async () => {
    const a = connect();
    const noLab = await a.emitWithAck('node:kill', { node: 1 });
    expect(noLab).toMatchObject({ ok: false, error: { code: 'no-lab' } });
    const { labId } = value(await a.emitWithAck('lab:join', {}));
    const cases: unknown[] = [{ node: 'two' }, { node: -1 }, null, 'kill', [1, 2, 3], { node: 2, extra: 1 }];
    for (const payload of cases) {
      const result = await (a as unknown as { emitWithAck(e: string, p: unknown): Promise<Result<unknown>> }).emitWithAck('node:kill', payload);
      expect(result.ok, JSON.stringify(payload)).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('invalid-input');
    }
    const errors: string[] = [];
    a.on('lab:error', (e) => errors.push(e.message));
    (a as unknown as { emit(e: string, p: unknown): void }).emit('node:kill', { node: 1 }); // no ack
    await waitFor(() => errors.length > 0, 'an error for a message without acknowledgement');
    expect(errors[0]).toMatch(/acknowledgement/);
    const badJoin = await (a as unknown as { emitWithAck(e: string, p: unknown): Promise<Result<unknown>> }).emitWithAck('lab:join', { labId: '../../etc' });
    expect(badJoin.ok).toBe(false);
    // Still serving, and nothing changed in the lab.
    const snapshot = value(await a.emitWithAck('lab:join', { labId }));
    expect(snapshot.nodes.every((n) => n.state === 'up')).toBe(true);
  });

  it('refuses a tab that sends lab commands faster than a person could, and serves it again after a pause', async () => {
    const { labActionBurst, perLabBurst, perLabRatePerSecond, floodRefusals } = configFromEnv();
    const cookie = await browserCookie(server.url);
    const tab = connect(undefined, cookie);
    const { labId } = value(await tab.emitWithAck('lab:join', {}));
    const other = connect(undefined, cookie);
    value(await other.emitWithAck('lab:join', { labId }));
    // Resuming a node that is up is refused as a conflict and changes nothing: a harmless command to flood with.
    // 25 over the tab's allowance: refused, but with the polls below well under the flood limit, so it stays connected.
    expect(25 + 10).toBeLessThan(floodRefusals);
    const began = performance.now();
    const [flood, otherFlood] = await Promise.all([
      Promise.all(Array.from({ length: labActionBurst + 25 }, () => tab.emitWithAck('node:resume', { node: 1 }))),
      Promise.all(Array.from({ length: 10 }, () => other.emitWithAck('node:resume', { node: 1 }))),
    ]);
    const elapsedS = (performance.now() - began) / 1000;
    const limited = flood.filter((r) => !r.ok && r.error.code === 'rate-limited');
    expect(limited.length).toBeGreaterThanOrEqual(25);
    expect(flood.some((r) => !r.ok && /Too many lab commands from this tab: wait \d+ ms/.test(r.error.message))).toBe(true);
    // Two tabs on one lab share the lab's allowance: together they get no more through than one could.
    const served = [...flood, ...otherFlood].filter((r) => r.ok || r.error.code !== 'rate-limited');
    expect(served.every((r) => !r.ok && r.error.code === 'conflict')).toBe(true);
    expect(served.length).toBeLessThanOrEqual(perLabBurst + Math.ceil(perLabRatePerSecond * elapsedS) + 1);
    expect([...flood, ...otherFlood].some((r) => !r.ok && /Too many commands on this lab from all its tabs together/.test(r.error.message))).toBe(true);
    // A tab on another lab has its own allowance.
    const elsewhere = connect();
    value(await elsewhere.emitWithAck('lab:join', {}));
    expect(await elsewhere.emitWithAck('node:resume', { node: 1 })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    // The flooding tab is served again once its allowance refills, and the lab never changed.
    await waitFor(async () => {
      const again = await tab.emitWithAck('node:resume', { node: 1 });
      return !again.ok && again.error.code === 'conflict';
    }, 'the tab to be served again', 5_000, 50);
    expect(tab.connected).toBe(true);
    // The join that is served is the one read: asking once more at once could find the lab's bucket empty again.
    const rejoined = await waitFor(
      async () => {
        const joined = await other.emitWithAck('lab:join', { labId });
        return joined.ok ? joined.value : null;
      },
      'the other tab to be served again',
      5_000,
      50,
    );
    expect(rejoined.nodes.every((n) => n.state === 'up')).toBe(true);
  });

  it('refuses a lab over the cap with "lab server is full", once no lab came free', async () => {
    // Fill the server to its cap (6) with labs that all have a tab (a lab earlier tests left without one makes room), then ask for one more.
    const withTab = () => server.labs.all().filter((lab) => server.labs.viewerCount(lab.id) > 0).length;
    while (server.labs.size < 6 || withTab() < 6) value(await connect().emitWithAck('lab:join', {}));
    const c = connect();
    const result = await c.emitWithAck('lab:join', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'lab-full' } });
    if (!result.ok) expect(result.error.message).toBe('The lab server is full (6 labs) and no lab came free within 2 s. Try again in a few minutes.');
  });

  it('refuses a socket from a foreign Origin', async () => {
    const foreign = connect({ origin: 'https://evil.example' });
    const error = await new Promise<Error>((resolve) => foreign.once('connect_error', resolve));
    expect(error.message).toMatch(/websocket error|xhr poll error|Forbidden|not authorized/i);
    expect(foreign.connected).toBe(false);
    const same = connect({ origin: server.url });
    await waitFor(() => same.connected, 'a same-origin socket to connect');
  });
});

describe('lab lifetime', () => {
  it('deepens the warm reserve while a class arrives: three labs handed out in a row leave five in reserve', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-rt3-'));
    const third = await createLabServer(configFromEnv({ port: 0, web: false, maxLabs: 10, warmLabs: 1, runRoot: root }));
    try {
      await waitFor(() => third.labs.reserve === 1, 'the warm reserve to fill');
      for (let i = 0; i < 3; i++) {
        const tab: Client = tabSoon(third.url, { cookie: await browserCookie(third.url) });
        sockets.push(tab);
        const snapshot = value(await tab.emitWithAck('lab:join', {}));
        expect(snapshot.nodes.every((n) => n.state === 'up')).toBe(true);
      }
      // One in reserve is the operator's figure; a room of learners arriving gets four more ready for the next ones.
      await waitFor(() => third.labs.reserve === 5, 'the reserve to hold five labs');
      expect(third.labs.size).toBe(3);
    } finally {
      await third.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('serves a new tab from the warm reserve, refills it, and destroys a lab left without a tab', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-rt2-'));
    const second = await createLabServer(configFromEnv({ port: 0, web: false, maxLabs: 4, warmLabs: 1, labIdleMs: 300, runRoot: root }));
    try {
      // The reserve lab is started in the background right after the server starts.
      await waitFor(() => second.labs.reserve === 1, 'the warm reserve to fill');
      const cookie = await browserCookie(second.url);
      const tab: Client = tabSoon(second.url, { cookie });
      sockets.push(tab);
      const snapshot = value(await tab.emitWithAck('lab:join', { clients: 4 }));
      expect(snapshot.clients).toBe(4);
      expect(snapshot.nodes.every((n) => n.state === 'up')).toBe(true);
      const lab = second.labs.get(snapshot.labId)!;
      const pids = lab.nodes.map((n) => n.pid!);
      await waitFor(() => second.labs.reserve === 1, 'the reserve to refill');

      const viewer: Client = tabSoon(second.url, { cookie });
      sockets.push(viewer);
      value(await viewer.emitWithAck('lab:join', { labId: snapshot.labId }));
      tab.close();
      // Once the server has seen the first tab go, one tab still watches: the lab stays, with no idle timer running.
      await waitFor(() => second.labs.viewerCount(snapshot.labId) === 1, 'the server to see the first tab leave');
      expect(second.labs.get(snapshot.labId)).toBeDefined();
      expect(second.labs.isIdle(snapshot.labId)).toBe(false);
      viewer.disconnect();
      await waitFor(() => second.labs.get(snapshot.labId) === undefined, 'the idle lab to be destroyed', 5_000);
      await waitFor(() => pids.every((pid) => !alive(pid)), 'its redis-servers to stop');
    } finally {
      await second.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
