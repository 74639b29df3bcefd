/**
 * Connections and descriptors bounded (issue 28, item 3): every learner connection is a socket of the
 * server's, so a program opening them in a loop once took all of its file descriptors. A client may
 * hold 16, a run 128; past that `new Redis()` fails as an OS refuses a socket (EMFILE), with a sentence
 * saying whose limit it is, for that client only. A learner's connectTimeout/commandTimeout above 10 s
 * is held to 10 s, and the run's console says so.
 */
import fs from 'node:fs';
import IORedis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryInput } from '@/lib/history';
import { createSandboxPool, DEFAULT_LIMITS, type SandboxPool } from '@/server/sandbox';
import { LEARNER, startRedisServers, type TestRedisCluster } from '../helpers/redis-server';
import { startProgram, type RecordedRun } from '../helpers/sandbox-run';

let cluster: TestRedisCluster;
let pool: SandboxPool;
beforeAll(async () => {
  cluster = await startRedisServers(1);
  pool = createSandboxPool({ warmWorkers: 1 });
  // Every host up before any count, as the server starts them: a host started later for a spare adds
  // its own channel's sockets to the count, which are no learner's.
  await pool.start();
  await pool.whenWarm();
});
afterAll(async () => {
  await pool?.close();
  await cluster?.stop();
});

/** The lab's own notes (client 0) with their words' key. */
function labNotes(run: RecordedRun): { text: string; key: string | undefined }[] {
  return run.events.flatMap((e: HistoryInput) => (e.type === 'console' && e.client === 0 ? [{ text: e.text, key: e.words?.key }] : []));
}

const PER_CLIENT = (client: number, n: number) =>
  `Client ${client} has ${n} connections open, the lab's limit per client: close one (quit()/disconnect()) before opening another.`;

describe('connections per client', () => {
  it('refuses the 17th of a client with the sentence; its 16 and the other client go on', async () => {
    const code = `import Redis from 'ioredis';
import lab from 'lab';
const opts = { host: 'redis-1.internal', port: 6379 };
if (lab.client === 1) {
  const open: Redis[] = [];
  for (let i = 0; i < 16; i++) { const r = new Redis(opts); await r.ping(); open.push(r); }
  const extra = new Redis(opts);
  try { await extra.connect(); console.log('17th connected'); } catch (e) { console.log('connect:', (e as Error).message, (e as { code?: string }).code); }
  try { await extra.set('conns:x', '1'); console.log('17th set'); } catch (e) { console.log('set:', (e as Error).message); }
  // A second refusal: the error again, the lab's note only once.
  const again = new Redis(opts);
  again.on('error', () => undefined);
  try { await again.ping(); } catch (e) { console.log('again refused'); }
  let answered = 0;
  for (const r of open) if ((await r.incr('conns:client1')) > 0) answered++;
  console.log('earlier answered', answered);
  await open[0]!.set('conns:refused', '1');
  for (const r of open) await r.quit();
} else {
  const watcher = new Redis(opts);
  while ((await watcher.get('conns:refused')) !== '1') await lab.sleep(5);
  const fresh = new Redis(opts);
  console.log('client 2 set', await fresh.set('conns:client2', 'ok'));
  await fresh.quit();
  await watcher.quit();
}`;
    const run = startProgram(pool, cluster, code, { clients: 2 });
    const outcome = await run.done;
    expect(outcome.status).toBe('completed');
    expect(outcome.clients.map((c) => c.status)).toEqual(['exited', 'exited']);
    expect(run.console(1)).toEqual([
      `connect: ${PER_CLIENT(1, 16)} EMFILE`,
      `set: ${PER_CLIENT(1, 16)}`,
      'again refused',
      'earlier answered 16',
    ]);
    expect(run.console(2)).toEqual(['client 2 set OK']);
    expect(labNotes(run)).toEqual([{ text: PER_CLIENT(1, 16), key: 'runNotes.connectionsPerClient' }]);
  });

  it('frees the place of a connection closed by quit(), disconnect() or one that could never open', async () => {
    const code = `import Redis from 'ioredis';
const opts = { host: 'redis-1.internal', port: 6379 };
const open: Redis[] = [];
for (let i = 0; i < 3; i++) { const r = new Redis(opts); await r.ping(); open.push(r); }
const refused = async (label: string) => {
  const r = new Redis(opts);
  r.on('error', () => undefined);
  try { await r.ping(); console.log(label, 'opened'); open.push(r); } catch (e) { console.log(label, 'refused:', (e as Error).message); }
};
await refused('4th');
await open.shift()!.quit();
await refused('after quit');
open.shift()!.disconnect();
await refused('after disconnect');
await refused('full again');
open.shift()!.disconnect();
// A host the lab does not have fails at once and holds no socket: it takes no place for good.
const nowhere = new Redis({ host: 'no-such-host', port: 6379 });
nowhere.on('error', () => undefined);
try { await nowhere.ping(); } catch (e) { console.log('nowhere:', (e as Error).message); }
await refused('after nowhere');
await refused('full at the end');
for (const r of open) await r.quit();`;
    // A lesson may lower the cap (never raise it: the pool keeps the server's maximum).
    const run = startProgram(pool, cluster, code, { limits: { maxConnectionsPerClient: 3 } });
    const outcome = await run.done;
    expect(outcome.status).toBe('completed');
    expect(run.console(1)).toEqual([
      `4th refused: ${PER_CLIENT(1, 3)}`,
      'after quit opened',
      'after disconnect opened',
      `full again refused: ${PER_CLIENT(1, 3)}`,
      'nowhere: getaddrinfo ENOTFOUND no-such-host',
      'after nowhere opened',
      `full at the end refused: ${PER_CLIENT(1, 3)}`,
    ]);
  });

  it('refuses a node-redis client’s connect() the same way', async () => {
    const code = `import { createClient } from 'redis';
const first = createClient({ url: 'redis://redis-1.internal:6379' });
await first.connect();
const second = createClient({ url: 'redis://redis-1.internal:6379' });
try { await second.connect(); console.log('second connected'); } catch (e) { console.log('second:', (e as Error).message); }
console.log('first', await first.set('conns:nr', '1'));
await first.quit();`;
    const run = startProgram(pool, cluster, code, { limits: { maxConnectionsPerClient: 1 } });
    expect((await run.done).status).toBe('completed');
    expect(run.console(1)).toEqual([`second: ${PER_CLIENT(1, 1)}`, 'first OK']);
  });

  it('keeps the server’s cap when a run asks for more', () => {
    expect(DEFAULT_LIMITS.maxConnectionsPerClient).toBe(16);
    expect(DEFAULT_LIMITS.maxConnectionsPerRun).toBe(128);
    expect(pool.limits.maxConnectionsPerClient).toBe(16);
  });
});

describe('connections per run', () => {
  it('refuses past 128 open across the run’s clients, each refusal to the client that asked', async () => {
    // 9 clients × 15 = 135 asked, each under its own cap of 16: 7 must be refused, by the run's cap.
    const code = `import Redis from 'ioredis';
import lab from 'lab';
const opts = { host: 'redis-1.internal', port: 6379 };
const open: Redis[] = [];
let refused = 0;
for (let i = 0; i < 15; i++) {
  const r = new Redis(opts);
  r.on('error', () => undefined);
  try { await r.ping(); open.push(r); } catch (e) { refused++; console.log((e as Error).message); }
}
// Hold them until every client has tried, so none frees a place early.
await open[0]!.incr('conns:tried');
while (Number(await open[0]!.get('conns:tried')) < 9) await lab.sleep(5);
console.log('open', open.length, 'refused', refused);
for (const r of open) await r.quit();`;
    const run = startProgram(pool, cluster, code, { clients: 9, limits: { wallClockMs: 30_000 } });
    const outcome = await run.done;
    expect(outcome.status).toBe('completed');
    let opened = 0;
    let refusals = 0;
    for (let client = 1; client <= 9; client++) {
      const lines = run.console(client);
      const last = lines.at(-1) ?? '';
      const m = /^open (\d+) refused (\d+)$/.exec(last);
      expect(m, `client ${client}: ${lines.join(' | ')}`).not.toBeNull();
      opened += Number(m![1]);
      refusals += Number(m![2]);
      for (const line of lines.slice(0, -1)) {
        expect(line).toBe(
          `Client ${client} could not open a connection: the run's clients have 128 connections open, the lab's limit per run. Close one (quit()/disconnect()) before opening another.`,
        );
      }
    }
    expect(opened).toBe(128);
    expect(refusals).toBe(7);
    expect(labNotes(run).every((n) => n.key === 'runNotes.connectionsPerRun')).toBe(true);
  });
});

/** Sockets process `pid` holds (/proc/<pid>/fd). */
function socketsOf(pid: number | 'self'): number {
  return fs.readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:');
    } catch {
      return false; // closed between the listing and the read: not held
    }
  }).length;
}

/** Sockets of this process and of the pool's sandbox hosts, where every learner connection is one. */
function socketsHeld(): number {
  return socketsOf('self') + pool.hostPids.reduce((n, pid) => n + socketsOf(pid), 0);
}

describe('the issue’s program: 1,250 connections in a loop with a long connectTimeout', () => {
  it('costs the server and its sandbox hosts at most the 16 sockets of the client’s cap, all in the run\'s host', async () => {
    const admin = new IORedis({ port: cluster.nodes[0]!.port, ...LEARNER });
    try {
      await admin.del('conns:hold');
      const before = socketsHeld();
      const serverBefore = socketsOf('self');
      const code = `import Redis from 'ioredis';
import lab from 'lab';
const all: Redis[] = [];
let refused = 0;
for (let i = 0; i < 1250; i++) {
  const r = new Redis({ host: 'redis-1.internal', port: 6379, connectTimeout: 600000 });
  r.on('error', () => { refused++; });
  all.push(r);
}
const answered = (await Promise.allSettled(all.map((r) => r.ping()))).filter((p) => p.status === 'fulfilled').length;
console.log('answered', answered, 'refused', refused);
// Held open until the test has counted the server's sockets.
while ((await all[0]!.get('conns:hold')) !== 'counted') await lab.sleep(5);
for (const r of all) r.disconnect();`;
      const run = startProgram(pool, cluster, code);
      await run.waitFor((e) => e.type === 'console' && e.client === 1 && e.text.startsWith('answered'));
      const during = socketsHeld();
      const inHost = socketsOf(run.handle.thread()!.pid);
      const inServer = socketsOf('self');
      await admin.set('conns:hold', 'counted');
      expect((await run.done).status).toBe('completed');
      expect(run.console(1)[0]).toBe('answered 16 refused 1234');
      console.info(`sockets of the server and its sandbox hosts: ${before} before, ${during} while the program held its connections (${inHost} in the run's host, ${inServer} in the server)`);
      expect(pool.hostPids.length).toBeGreaterThanOrEqual(2);
      expect(during - before).toBeLessThanOrEqual(16 + 1);
      expect(inServer - serverBefore).toBeLessThanOrEqual(1);
      expect(inHost).toBeGreaterThanOrEqual(16);
    } finally {
      admin.disconnect();
    }
  });
});

describe('connection timeouts a learner sets', () => {
  it('holds connectTimeout and commandTimeout above 10 s to 10 s, and says so once', async () => {
    const code = `import Redis from 'ioredis';
const a = new Redis({ host: 'redis-1.internal', port: 6379, connectTimeout: 600000, commandTimeout: 600000 });
const b = new Redis({ host: 'redis-1.internal', port: 6379, connectTimeout: 600000 });
const c = new Redis({ host: 'redis-1.internal', port: 6379, connectTimeout: 2000, commandTimeout: 100 });
console.log(await a.set('conns:t', '1'), await b.get('conns:t'), await c.get('conns:t'));
for (const r of [a, b, c]) await r.quit();`;
    const run = startProgram(pool, cluster, code);
    const outcome = await run.done;
    expect(outcome.status).toBe('completed');
    expect(run.console(1)).toEqual(['OK 1 1']);
    expect(labNotes(run)).toEqual([
      { text: 'Client 1 asked for a connectTimeout of 600000 ms; the lab allows at most 10000 ms, so its connections use 10000 ms.', key: 'runNotes.connectOptionClamped' },
      { text: 'Client 1 asked for a commandTimeout of 600000 ms; the lab allows at most 10000 ms, so its connections use 10000 ms.', key: 'runNotes.connectOptionClamped' },
    ]);
  });
});
