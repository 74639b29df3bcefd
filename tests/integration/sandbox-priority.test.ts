/**
 * Learner code runs below the web server's priority: the thread that runs a
 * learner's busy loop is, read from /proc, at LEARNER_NICE, and the server's
 * main thread is not. (A swallowed ReferenceError once kept every worker at
 * nice 0 while the code said 15; only reading /proc shows which is true.)
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import { LEARNER_NICE } from '@/server/ops/priority';
import { startRedisServers, type TestRedisCluster } from '../helpers/redis-server';
import { startProgram } from '../helpers/sandbox-run';

interface TaskSample {
  nice: number;
  cpuTicks: number;
}

/** Every thread of this process: its nice value and CPU ticks so far (/proc/self/task/<tid>/stat). */
function tasks(): Map<number, TaskSample> {
  const out = new Map<number, TaskSample>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // rest[0] is field 3: utime 14 and stime 15 are rest[11], rest[12]; nice 19 is rest[16].
      out.set(Number(tid), { nice: Number(rest[16]), cpuTicks: Number(rest[11]) + Number(rest[12]) });
    } catch {
      /* the thread ended meanwhile */
    }
  }
  return out;
}

/** A client that burns CPU in short bursts (each well inside a slice) until it is stopped. */
const BUSY_PROGRAM = [
  "import lab from 'lab';",
  'for (;;) {',
  '  const t = Date.now();',
  '  while (Date.now() - t < 20) { /* spin */ }',
  '  await lab.sleep(1);',
  '}',
].join('\n');

let cluster: TestRedisCluster;
let pool: SandboxPool;

beforeAll(async () => {
  cluster = await startRedisServers(1);
  pool = createSandboxPool({ warmWorkers: 0 });
});

afterAll(async () => {
  await pool?.close();
  await cluster?.stop();
});

describe.skipIf(process.platform !== 'linux')('the priority of learner code', () => {
  it('runs in a thread at LEARNER_NICE, below the main thread', async () => {
    // The worker's thread is one this process did not have before the run: on a loaded machine the busiest
    // thread of all may be the main one or a shared V8 thread, so the learner's is told apart by when it began.
    const threadsBefore = tasks();
    const run = startProgram(pool, cluster, BUSY_PROGRAM, { clients: 1 });
    await run.waitFor((e) => e.type === 'client' && e.event === 'start');
    const started = tasks();
    // The learner's loop has run ~10 bursts once the busiest new thread has 10 ticks (100 ms) more than at its start.
    let busiest = { tid: 0, ticks: 0 };
    await expect
      .poll(
        () => {
          busiest = { tid: 0, ticks: 0 };
          for (const [tid, sample] of tasks()) {
            if (threadsBefore.has(tid)) continue;
            const grew = sample.cpuTicks - (started.get(tid)?.cpuTicks ?? 0);
            if (grew > busiest.ticks) busiest = { tid, ticks: grew };
          }
          return busiest.ticks;
        },
        { timeout: 30_000, interval: 50 },
      )
      .toBeGreaterThanOrEqual(10);
    const now = tasks();
    expect(now.get(busiest.tid)?.nice).toBe(LEARNER_NICE);
    expect(now.get(process.pid)?.nice).toBe(0);
    run.handle.stop();
    await run.done;
  });
});
