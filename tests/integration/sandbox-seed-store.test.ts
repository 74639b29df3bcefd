/**
 * Two promises of the sandbox, in real runs: a seed replays the clients' randomness
 * (Math.random, crypto), and `lab.store` behaves like a remote store — its calls
 * answer promises after a latency, take effect when they arrive, race without a
 * lock, and a paused client's request still arrives while its answer waits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryInput } from '@/lib/history';
import { triggerSchema } from '@/lib/scenario';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import { startRedisServers, type TestRedisCluster } from '../helpers/redis-server';
import { startProgram } from '../helpers/sandbox-run';

let cluster: TestRedisCluster;
let pool: SandboxPool;

beforeAll(async () => {
  cluster = await startRedisServers(1);
  pool = createSandboxPool({ warmWorkers: 2 });
  await pool.whenWarm();
});

afterAll(async () => {
  await pool?.close();
  await cluster?.stop();
});

const RANDOM_PROGRAM = `import { randomUUID, randomInt, randomBytes } from 'crypto';
import lab from 'lab';
// A store call between the draws: its latencies come from a stream of their own, so they shift nothing.
const first = [Math.random(), Math.random()];
await lab.store.write('k' + lab.client, 'v');
console.log(JSON.stringify({ m: [...first, Math.random()], u: randomUUID(), i: randomInt(1_000_000), h: randomBytes(6).toString('hex') }));
`;

/** Each client's one console line, by client number. */
async function draws(seed: number): Promise<Map<number, string>> {
  const run = startProgram(pool, cluster, RANDOM_PROGRAM, { clients: 3, seed });
  const outcome = await run.done;
  expect(run.diagnostics).toEqual([]);
  expect(outcome.status).toBe('completed');
  expect(run.handle.seed).toBe(seed);
  const lines = new Map<number, string>();
  for (const e of run.events) if (e.type === 'console' && e.client > 0) lines.set(e.client, e.text);
  expect([...lines.keys()].sort()).toEqual([1, 2, 3]);
  return lines;
}

describe('a seed replays', () => {
  it('prints the same Math.random() and crypto values per client for the same seed, others for another seed', async () => {
    const [a, b, c] = await Promise.all([draws(4242), draws(4242), draws(4243)]);
    expect(b).toEqual(a);
    const values = [1, 2, 3].map((client) => JSON.parse(a.get(client) ?? '{}') as { m: number[]; u: string; i: number; h: string });
    for (const v of values) {
      expect(v.m).toHaveLength(3);
      for (const x of v.m) expect(x >= 0 && x < 1).toBe(true);
      expect(v.u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(v.h).toMatch(/^[0-9a-f]{12}$/);
    }
    // Different clients draw different streams.
    expect(new Set(values.map((v) => v.u)).size).toBe(3);
    expect(new Set(values.map((v) => v.m[0])).size).toBe(3);
    // A different seed, different values for every client.
    for (const client of [1, 2, 3]) expect(c.get(client)).not.toBe(a.get(client));
  });

  it('draws a seed when none is given, and says which', async () => {
    const run = startProgram(pool, cluster, 'console.log(Math.random());', { clients: 1 });
    await run.done;
    expect(Number.isInteger(run.handle.seed)).toBe(true);
    const again = startProgram(pool, cluster, 'console.log(Math.random());', { clients: 1, seed: run.handle.seed });
    await again.done;
    expect(again.console()).toEqual(run.console());
  });
});

describe('lab.store is remote', () => {
  it('answers promises after a latency each way; a fenced-off write rejects with EFENCED', async () => {
    const code = `import lab from 'lab';
const t0 = performance.now();
const p = lab.store.write('invoice', 'a', 5);
console.log('promise', p instanceof Promise);
console.log('accepted', await p);
console.log('took', performance.now() - t0 >= 6);
console.log('read', await lab.store.read('invoice'), await lab.store.read('nothing'));
try {
  await lab.store.write('invoice', 'b', 4);
} catch (e) {
  console.log('rejected', e instanceof Error, e.code, e.message);
}
console.log('unfenced', await lab.store.write('invoice', 'c'));
`;
    const run = startProgram(pool, cluster, code, { clients: 1, seed: 7 });
    const outcome = await run.done;
    expect(run.diagnostics).toEqual([]);
    expect(outcome.status).toBe('completed');
    expect(run.console()).toEqual(['promise true', 'accepted 5', 'took true', 'read a null', 'rejected true EFENCED fenced: token 4 <= 5', 'unfenced null']);
    const stores = run.events.filter((e) => e.type === 'store');
    expect(stores.map((e) => e.type === 'store' && [e.value, e.token, e.accepted])).toEqual([
      ['a', 5, true],
      ['b', 4, false],
      ['c', null, true],
    ]);
  });

  it('a read-then-write without a lock loses updates', async () => {
    const code = `import lab from 'lab';
for (let i = 0; i < 10; i++) {
  const n = Number((await lab.store.read('counter')) ?? '0');
  await lab.store.write('counter', String(n + 1));
}
if (lab.client === 1) { await lab.sleep(200); console.log('counter', await lab.store.read('counter')); }
`;
    const run = startProgram(pool, cluster, code, { clients: 2, seed: 11 });
    await run.done;
    expect(run.diagnostics).toEqual([]);
    const line = run.console(1)[0] ?? '';
    expect(line).toMatch(/^counter \d+$/);
    expect(Number(line.split(' ')[1])).toBeLessThan(20);
  });

  it("a paused client's request still arrives at the store; its answer waits for the resume", async () => {
    const code = `import lab from 'lab';
const p = lab.store.write('invoice', 'sent', 1);
lab.log('sent');
await p;
lab.log('answered');
`;
    // Paused as the line is logged, in the worker: the write is already on the wire.
    const armed = [
      {
        when: triggerSchema.parse({ on: 'log', client: 1, text: 'sent' }),
        at: 0,
        fault: { action: 'client-pause' as const, client: 1, durationMs: 300 },
        detail: 'pause Client 1 for 300 ms',
        detailWords: { key: 'runNotes.step.clientPause', values: { client: { client: 1 }, hasDuration: 'yes', duration: '300' } },
      },
    ];
    const run = startProgram(pool, cluster, code, { clients: 1, seed: 3, armed });
    const outcome = await run.done;
    expect(run.diagnostics).toEqual([]);
    expect(outcome.status).toBe('completed');
    const at = (match: (e: HistoryInput) => boolean): number => run.events.find(match)?.t ?? NaN;
    const paused = at((e) => e.type === 'client' && e.event === 'pause');
    const resumed = at((e) => e.type === 'client' && e.event === 'resume');
    const stored = at((e) => e.type === 'store');
    const answered = at((e) => e.type === 'console' && e.text === 'answered');
    expect(stored).toBeGreaterThan(paused);
    expect(stored).toBeLessThan(resumed);
    expect(answered).toBeGreaterThanOrEqual(resumed);
  });

  it('too many store calls in flight end that client only', async () => {
    const code = `import lab from 'lab';
if (lab.client === 1) {
  for (let i = 0; i < 1000; i++) void lab.store.write('k', String(i));
} else {
  await lab.sleep(100);
  console.log('still here', await lab.store.read('nothing'));
}
`;
    const run = startProgram(pool, cluster, code, { clients: 2, seed: 5 });
    const outcome = await run.done;
    expect(outcome.status).toBe('completed');
    expect(outcome.clients.map((c) => c.status)).toEqual(['limit', 'exited']);
    expect(outcome.clients[0]?.error).toMatch(/more than 100 lab\.store calls/);
    expect(run.diagnostics.map((d) => [d.client, d.kind])).toEqual([[1, 'limit']]);
    expect(run.console(2)).toEqual(['still here null']);
  });
});
