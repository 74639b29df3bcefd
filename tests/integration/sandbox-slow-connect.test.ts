/**
 * The lab's default command timeout is a safety net for a node that never answers, not a race against the
 * client's own handshake: a command issued while the connection is still being made counts from when it can
 * leave (real ioredis has no default timeout at all). A client's first command used to fail whenever its
 * worker was slow to finish the handshake — on a busy machine, lesson 2's reference solution failed so.
 * A `commandTimeout` the learner sets still counts from the call, as ioredis counts it (sandbox.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkProxy } from '@/server/cluster/link-proxy';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import { startRedisServers, type TestRedisCluster } from '../helpers/redis-server';
import { startProgram } from '../helpers/sandbox-run';

let cluster: TestRedisCluster;
let pool: SandboxPool;
beforeAll(async () => {
  cluster = await startRedisServers(1);
  pool = createSandboxPool({ warmWorkers: 1 });
  await pool.whenWarm();
});
afterAll(async () => {
  await pool?.close();
  await cluster?.stop();
});

describe('the first command on a slow handshake', () => {
  it('is answered, not timed out by the lab’s default, when the handshake alone takes most of that default', async () => {
    // 150 ms each way: the connection is ready after its AUTH's round trip (~300 ms), the SET then takes
    // another ~300 ms. The lab's default here is 500 ms: counted from the call it would fire first.
    const link = new LinkProxy('test → Node 1', { port: () => cluster.nodes[0]!.port });
    link.setDelay(150, 0);
    const port = await link.start();
    try {
      const code = `import Redis from 'ioredis';
const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
try { console.log('set:', await redis.set('lock:first', 'token', 'NX', 'PX', 5000)); } catch (e) { console.log('set:', (e as Error).message); }
redis.disconnect();`;
      const run = startProgram(pool, cluster, code, { linkPort: () => port, limits: { commandTimeoutMs: 500 } });
      await run.done;
      expect(run.console(1)).toEqual(['set: OK']);
    } finally {
      await link.close();
    }
  });
});
