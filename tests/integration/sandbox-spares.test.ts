/**
 * The sandbox pool's spare workers boot one at a time, and none while a run waits for its own worker to boot: a boot
 * takes the cores for a second or more, and when Explore's three runs booted their workers beside three more spares,
 * their first lines came 5 s after their starts. The pool's worker count is read right after each call, before any
 * boot can have answered (a boot's answer needs this process's event loop).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import { startRedisServers, type TestRedisCluster } from '../helpers/redis-server';
import { startProgram } from '../helpers/sandbox-run';

let pool: SandboxPool | null = null;
let cluster: TestRedisCluster | null = null;

afterEach(async () => {
  await pool?.close();
  pool = null;
  await cluster?.stop();
  cluster = null;
});

/** Waits, turn by turn, until `pool.workers` reads `n`. */
async function workersReach(p: SandboxPool, n: number): Promise<void> {
  await expect.poll(() => p.workers, { timeout: 60_000, interval: 20 }).toBe(n);
}

describe('spare workers', () => {
  it('boot one after another up to the warm count', { timeout: 90_000 }, async () => {
    pool = createSandboxPool({ warmWorkers: 3, hosts: 1 });
    expect(pool.workers).toBe(1);
    await pool.whenWarm();
    expect(pool.workers).toBe(3);
  });

  it("wait while a run's own worker boots, then fill up to what Explore asked for", { timeout: 90_000 }, async () => {
    cluster = await startRedisServers(1);
    pool = createSandboxPool({ warmWorkers: 0, hosts: 2 });
    const release = pool.keepWarm(2);
    // One spare booting, not two.
    expect(pool.workers).toBe(1);
    const first = startProgram(pool, cluster, "import lab from 'lab';\nlab.log('first line');\nawait lab.sleep(60_000);\n");
    const second = startProgram(pool, cluster, "import lab from 'lab';\nlab.log('first line');\nawait lab.sleep(60_000);\n");
    // The first run took the booting spare, the second booted its own; no spare boots beside them.
    expect(pool.workers).toBe(2);
    await Promise.all([first, second].map((run) => run.waitFor((e) => e.type === 'console')));
    // Both runs going: the spares the search asked for come after, one at a time.
    await workersReach(pool, 4);
    await pool.whenWarm();
    expect(pool.workers).toBe(4);
    first.handle.stop();
    second.handle.stop();
    await Promise.all([first.done, second.done]);
    release();
    expect(pool.workers).toBe(0);
  });
});
