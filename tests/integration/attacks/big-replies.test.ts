/**
 * Big replies (the finding: a long command timeout plus a big reply ran a
 * worker out of heap with the server at 1.2 GB). Redis closes a connection
 * whose reply passes 16 MB, the history keeps a prefix of each reply, and a
 * worker's heap is capped: eight clients pulling 12 MB replies at once end
 * their own run at worst, while the server's heap stays put and a bystander's
 * run is not hurt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bystander, runToEnd, startAttackServer, value, type AttackServer } from './attack-fixture';

let attack: AttackServer;
beforeAll(async () => {
  attack = await startAttackServer();
});
afterAll(async () => {
  await attack?.close();
});

const BIG_READER = `
import Redis from 'ioredis';
import lab from 'lab';
const redis = new Redis({ host: 'redis-1.internal', commandTimeout: 25_000 });
if (lab.client === 1) for (const k of ['a', 'b', 'c']) await redis.set(k, 'z'.repeat(4 * 1024 * 1024 - 64));
else await lab.sleep(500);
let sizes = 0;
for (let i = 0; i < 4; i++) {
  try {
    const values = await Promise.all([redis.mget('a', 'b', 'c'), redis.mget('a', 'b', 'c'), redis.mget('a', 'b', 'c')]);
    sizes += values.length;
  } catch (error) {
    console.log('read failed: ' + String(error).slice(0, 80));
  }
}
console.log('read ' + sizes);
`;

describe('big replies', () => {
  it('end at most their own run; the server stays put and a bystander is served', async () => {
    const watcher = await bystander(attack);
    const tab = await attack.tab();
    value(await tab.emitWithAck('lab:join', {}));
    global.gc?.();
    const before = process.memoryUsage();
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 50);
    const attackRun = runToEnd(tab, { code: BIG_READER, clients: 8 });
    const during = await watcher.run();
    const ended = await attackRun;
    clearInterval(sampler);
    // However it ended (a closed connection, the QuickJS heap, the worker's heap), it ended, and said why when it was stopped.
    expect(['completed', 'limit', 'killed', 'error', 'timeout']).toContain(ended.outcome.status);
    if (ended.outcome.status === 'killed') expect(ended.outcome.error).toMatch(/server memory a run may hold|sandbox/);
    // The server's own heap never held the replies: the history keeps prefixes.
    expect((peakHeap - before.heapUsed) / 2 ** 20).toBeLessThan(200);
    expect(during.ended.verdict.valid).toBe('held');
    expect(during.ended.outcome.status).toBe('completed');
  }, 120_000);
});
