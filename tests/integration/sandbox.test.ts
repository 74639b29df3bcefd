/**
 * Learner programs in the styles of the Arabic production write-up and the Norwegian course lesson run unchanged against real redis-servers;
 * diagnostics point at the learner's own lines; pause and crash act like a GC
 * pause and a dead process.
 */
import { readFileSync } from 'node:fs';
import IORedis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryInput } from '@/lib/history';
import { LinkProxy } from '@/server/cluster/link-proxy';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import { startRedisServers, type TestRedisCluster } from '../helpers/redis-server';
import { startProgram } from '../helpers/sandbox-run';

let cluster: TestRedisCluster;
let pool: SandboxPool;

beforeAll(async () => {
  cluster = await startRedisServers(5);
  pool = createSandboxPool({ warmWorkers: 2 });
  await pool.whenWarm();
});

afterAll(async () => {
  await pool?.close();
  await cluster?.stop();
});

function admin(node: number): IORedis {
  return new IORedis({ host: '127.0.0.1', port: cluster.nodes[node - 1]?.port ?? 0, lazyConnect: false });
}

/** Pairs of [enter t, exit t] per job execution, to check that no two overlap. */
function jobIntervals(events: HistoryInput[], job: string): [number, number][] {
  const enters = new Map<number, number>();
  const out: [number, number][] = [];
  for (const e of events) {
    if (e.type !== 'job' || e.job !== job) continue;
    if (e.phase === 'enter') enters.set(e.execution, e.t ?? 0);
    else out.push([enters.get(e.execution) ?? 0, e.t ?? 0]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

const ARABIC_WRITE_UP = readFileSync(new URL('./fixtures/sandbox-arabic-write-up.learner.txt', import.meta.url), 'utf8');
const NORWEGIAN_COURSE = readFileSync(new URL('./fixtures/sandbox-norwegian-course.learner.txt', import.meta.url), 'utf8');

describe('programs in the source articles\' styles', () => {
  it("runs the Arabic production write-up's ioredis Redlock with its cron job in 3 clients", async () => {
    const run = startProgram(pool, cluster, ARABIC_WRITE_UP, { clients: 3 });
    const outcome = await run.done;
    expect(outcome.status).toBe('completed');
    expect(outcome.clients.map((c) => c.status)).toEqual(['exited', 'exited', 'exited']);
    const nodes = new Set(run.events.flatMap((e) => (e.type === 'redis' && e.phase === 'invoke' ? [e.node] : [])));
    expect([...nodes].sort()).toEqual([1, 2, 3, 4, 5]);
    const intervals = jobIntervals(run.events, 'send-invoices');
    expect(intervals.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < intervals.length; i++) expect(intervals[i]![0]).toBeGreaterThanOrEqual(intervals[i - 1]![1]);
  });

  it("runs the Norwegian course lesson's node-redis lock, Lua release, watchdog, redlock.using and fenced store", async () => {
    const run = startProgram(pool, cluster, NORWEGIAN_COURSE, { clients: 2 });
    const outcome = await run.done;
    expect(run.diagnostics).toEqual([]);
    expect(outcome.status).toBe('completed');
    expect(outcome.clients.map((c) => c.status)).toEqual(['exited', 'exited']);
    const lockEvents = run.events.filter((e) => e.type === 'lock');
    // Redlock decides as soon as a quorum (2 of 3) is certain, like the v5 library.
    const acquired = lockEvents.find((e) => e.type === 'lock' && e.event === 'acquired');
    expect(acquired?.type === 'lock' && acquired.quorum).toBe(2);
    expect(acquired?.type === 'lock' && acquired.votes?.filter((v) => v.ok).length).toBeGreaterThanOrEqual(2);
    // Its validity is the TTL less the acquire's time and the clock drift (1 % of the TTL + 2 ms), like the library's:
    // read against the acquire's own duration in the history, so a busy machine's slow acquire is not a failure.
    if (acquired?.type !== 'lock') throw new Error('no lock acquired');
    const attempt = lockEvents.find((e) => e.type === 'lock' && e.event === 'attempt' && e.token === acquired.token && e.client === acquired.client);
    expect(attempt).toBeDefined();
    const ttl = acquired.ttlMs ?? 5_000;
    const drift = Math.floor(ttl * 0.01) + 2;
    const took = (acquired.t ?? Number.NaN) - (attempt?.t ?? Number.NaN);
    expect(took).toBeGreaterThanOrEqual(0);
    expect(acquired.validityMs).toBeLessThanOrEqual(ttl - drift);
    expect(acquired.validityMs).toBeGreaterThanOrEqual(ttl - drift - took - 25);
    expect(lockEvents.some((e) => e.type === 'lock' && e.event === 'released')).toBe(true);
    expect(run.console()).toContain('fenced: token 32 <= 33');
    const stores = run.events.filter((e) => e.type === 'store');
    expect(stores.some((e) => e.type === 'store' && !e.accepted)).toBe(true);
    // The watchdog's PEXPIRE ran through the Lua extend script.
    expect(run.events.some((e) => e.type === 'redis' && e.phase === 'invoke' && e.command === 'EVAL' && e.args[0]?.includes('pexpire'))).toBe(true);
  });
});

describe('diagnostics', () => {
  it('reports a syntax error at the learner line and column', async () => {
    const run = startProgram(pool, cluster, `import Redis from 'ioredis';\nconst a: number = 1;\nconst b = ;\n`);
    const outcome = await run.done;
    expect(outcome.status).toBe('syntax-error');
    expect(run.diagnostics[0]).toMatchObject({ kind: 'syntax', line: 3, column: 11 });
  });

  it('reports a runtime error at the learner line in every client', async () => {
    const code = `import lab from 'lab';\n\nasync function main(): Promise<void> {\n  await lab.sleep(1);\n  const x: any = null;\n  x.boom();\n}\nawait main();\n`;
    const run = startProgram(pool, cluster, code, { clients: 2 });
    const outcome = await run.done;
    expect(outcome.clients.map((c) => c.status)).toEqual(['error', 'error']);
    expect(run.diagnostics).toHaveLength(2);
    for (const d of run.diagnostics) expect(d).toMatchObject({ kind: 'runtime', line: 6 });
  });
});

describe('clients', () => {
  it('pause holds a reply until resume (a GC pause)', async () => {
    const code = `import Redis from 'ioredis';
const r = new Redis({ host: 'redis-2', port: 6379 });
const t0 = performance.now();
// A Lua script that keeps the node busy for 150 ms, so the reply is in flight when the pause begins.
await r.eval("local s = redis.call('TIME') local t = s[1] * 1000000 + s[2] repeat local n = redis.call('TIME') until (n[1] * 1000000 + n[2]) - t > 150000 return 1", 0);
console.log('reply after', Math.round(performance.now() - t0));
await r.quit();`;
    const run = startProgram(pool, cluster, code);
    await run.waitFor((e) => e.type === 'redis' && e.phase === 'invoke' && e.command === 'EVAL');
    run.handle.pauseClient(1, 600);
    const outcome = await run.done;
    expect(outcome.status).toBe('completed');
    const ok = run.events.find((e) => e.type === 'redis' && e.phase === 'ok' && e.command === 'EVAL');
    const resume = run.events.find((e) => e.type === 'client' && e.event === 'resume');
    const log = run.events.find((e) => e.type === 'console' && e.text.startsWith('reply after'));
    expect(ok && resume && log).toBeTruthy();
    // Redis answered during the pause; the program saw the answer only after the resume.
    expect(ok!.t!).toBeLessThan(resume!.t!);
    expect(log!.t!).toBeGreaterThanOrEqual(resume!.t!);
    expect(Number(run.console(1)[0]?.split(' ').pop())).toBeGreaterThanOrEqual(550);
  });

  it('crash leaves the lock in Redis and marks the in-flight work indeterminate', async () => {
    const key = `lock:crash:${Date.now()}`;
    const code = `const { createClient } = require('redis');
const crypto = require('crypto');
const redis = createClient({ url: 'redis://localhost:6381' });
await redis.connect();
const ok = await redis.set('${key}', crypto.randomUUID(), { NX: true, PX: 20000 });
console.log('locked', ok);
await new Promise((r) => setTimeout(r, 10000));
await redis.del('${key}');`;
    const run = startProgram(pool, cluster, code);
    await run.waitFor((e) => e.type === 'console' && e.text === 'locked OK');
    run.handle.crashClient(1);
    const outcome = await run.done;
    expect(outcome.clients[0]?.status).toBe('crashed');
    expect(run.events.some((e) => e.type === 'client' && e.event === 'crash')).toBe(true);
    const node3 = admin(3);
    try {
      expect(await node3.pttl(key)).toBeGreaterThan(10_000);
    } finally {
      node3.disconnect();
    }
  });

  it('a command issued before the connection is ready, sent once it is, then timed out, may have run: indeterminate, not failed', async () => {
    // 300 ms each way to Node 4: the connection is ready after its AUTH's round trip (~600 ms), ioredis then
    // sends the SET it queued, and the 900 ms timeout fires before its answer (~1,200 ms) comes back. A margin of
    // 300 ms on each side: with 100 ms a busy machine's slow connect let the timeout fire before the SET was sent.
    const link = new LinkProxy('test → Node 4', { port: () => cluster.nodes[3]!.port });
    link.setDelay(300, 0);
    const port = await link.start();
    try {
      const code = `const Redis = require('ioredis');
const redis = new Redis({ host: 'localhost', port: 6382, commandTimeout: 900 });
try { await redis.set('lock:queued', 'token', 'NX', 'PX', 5000); } catch (e) { console.log('set:', e.message); }
await new Promise((r) => setTimeout(r, 1000));
redis.disconnect();`;
      const run = startProgram(pool, cluster, code, { linkPort: (_client, node) => (node === 4 ? port : (cluster.nodes[node - 1]?.port ?? null)) });
      await run.done;
      expect(run.console(1)).toEqual(['set: Command timed out']);
      const set = run.events.find((e) => e.type === 'redis' && e.command === 'SET' && e.phase !== 'invoke');
      expect(set).toMatchObject({ phase: 'info', error: 'Command timed out' });
      // And it did run: the key is there.
      const node4 = admin(4);
      try {
        expect(await node4.get('lock:queued')).toBe('token');
      } finally {
        node4.disconnect();
      }
    } finally {
      await link.close();
    }
  });

  it('a reply that arrived while the thread was busy is read before the command timeout is judged (a busy machine fails nobody)', async () => {
    // The GET to Node 1 takes ~20 ms (10 ms each way); the PING to Node 2 comes back at once, and the client then
    // keeps the thread busy for 150 ms, as a worker starved of CPU on a loaded server would be. The GET's reply is
    // waiting in the socket long before its 60 ms timeout is looked at; timers run before sockets are read, so a
    // plain timer would call it timed out. (The client's own clock still sees the whole 150 ms.)
    const link = new LinkProxy('test → Node 1', { port: () => cluster.nodes[0]!.port });
    link.setDelay(10, 0);
    const port = await link.start();
    try {
      const code = `const Redis = require('ioredis');
const slow = new Redis({ host: 'redis-1.internal', port: 6379, commandTimeout: 60 });
const fast = new Redis({ host: 'redis-2.internal', port: 6379 });
await Promise.all([slow, fast].map((c) => new Promise((r) => c.once('ready', r))));
const reply = slow.get('busy:key');
await fast.ping();
const until = Date.now() + 150;
while (Date.now() < until) {}
try { console.log('get:', await reply); } catch (e) { console.log('get failed:', e.message); }
slow.disconnect();
fast.disconnect();`;
      const run = startProgram(pool, cluster, code, { linkPort: (_client, node) => (node === 1 ? port : (cluster.nodes[node - 1]?.port ?? null)) });
      await run.done;
      expect(run.console(1)).toEqual(['get: null']);
    } finally {
      await link.close();
    }
  });

  it('skew moves Date.now but not performance.now', async () => {
    const code = `import lab from 'lab';
const wall = Date.now();
const mono = performance.now();
await lab.sleep(200);
console.log(Math.round((Date.now() - wall) - (performance.now() - mono)));`;
    const run = startProgram(pool, cluster, code);
    await run.waitFor((e) => e.type === 'client' && e.event === 'start');
    run.handle.setSkew(1, 60_000);
    await run.done;
    expect(Number(run.console(1)[0])).toBeGreaterThan(59_000);
  });
});

describe('warm workers', () => {
  it('keeps more workers warm while a check asks (bounded), and ends them when it is done', async () => {
    // Idle workers, whatever the earlier tests' runs left going: this file's pool keeps 2 warm.
    const spares = () => pool.workers - pool.activeRuns;
    const release = pool.keepWarm(2);
    // They boot one at a time (tests/integration/sandbox-spares.test.ts).
    await pool.whenWarm();
    expect(spares()).toBe(2 + 2);
    // However much is asked, the extra is bounded: each is a thread with its heap.
    const greedy = pool.keepWarm(1_000);
    await pool.whenWarm();
    expect(spares()).toBe(2 + 4);
    greedy();
    release();
    release(); // a second call gives nothing back twice
    expect(spares()).toBe(2);
  });
});
