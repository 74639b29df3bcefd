/**
 * Learner code runs outside the web server, below its priority and as nobody
 * who matters (issue 29): the thread that runs a learner's busy loop is, read
 * from /proc, a thread of a sandbox host process (not of this one), at nice
 * ≥ 10, and — under a root server — of a uid that is neither root, nor the
 * link process's, nor a lab's, nor another host's. (A swallowed
 * ReferenceError once kept every worker at nice 0 while the code said 15;
 * only reading /proc shows which is true.)
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxPool, type RunThread, type SandboxPool } from '@/server/sandbox';
import { LAB_UID_BASE, LAB_UID_COUNT } from '@/server/cluster/lab-users';
import { linkHost } from '@/server/cluster/link-host';
import { startRedisServers, type TestRedisCluster } from '../helpers/redis-server';
import { startProgram } from '../helpers/sandbox-run';

interface TaskSample {
  nice: number;
  cpuTicks: number;
  ppid: number;
}

/** A task's nice value, CPU ticks so far and its process's parent, from /proc/<pid>/task/<tid>/stat. */
function task(pid: number, tid: number): TaskSample {
  const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3: ppid 4 is rest[1]; utime 14 and stime 15 are rest[11], rest[12]; nice 19 is rest[16].
  return { ppid: Number(rest[1]), nice: Number(rest[16]), cpuTicks: Number(rest[11]) + Number(rest[12]) };
}

/** The real uid of a task (or a process), from its status. */
const uidOf = (path: string): number => Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`${path}/status`, 'utf8'))?.[1]);

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
  pool = createSandboxPool({ warmWorkers: 0, hosts: 2 });
});

afterAll(async () => {
  await pool?.close();
  await cluster?.stop();
});

const asRoot = process.getuid?.() === 0;

describe.skipIf(process.platform !== 'linux')('the priority and the user of learner code', () => {
  it('runs in a thread of a sandbox host at nice ≥ 10, as a uid of that host alone', async () => {
    // Two busy runs at once: the pool puts them in different hosts (the least loaded takes the next run).
    const runs = [startProgram(pool, cluster, BUSY_PROGRAM, { clients: 1 }), startProgram(pool, cluster, BUSY_PROGRAM, { clients: 1 })];
    await Promise.all(runs.map((run) => run.waitFor((e) => e.type === 'client' && e.event === 'start')));
    const threads = runs.map((run) => run.handle.thread());
    expect(threads.every((t) => t !== null)).toBe(true);
    const [a, b] = threads as [RunThread, RunThread];
    // Observed: the named thread is the one that runs the loop — its CPU grows by ~10 bursts (10 ticks = 100 ms).
    const started = task(a.pid, a.tid).cpuTicks;
    await expect.poll(() => task(a.pid, a.tid).cpuTicks - started, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(10);

    for (const t of [a, b]) {
      // Not a thread of the web server: a child process of it.
      expect(fs.existsSync(`/proc/self/task/${t.tid}`)).toBe(false);
      expect(t.pid).not.toBe(process.pid);
      expect(task(t.pid, t.pid).ppid).toBe(process.pid);
      expect(task(t.pid, t.tid).nice).toBeGreaterThanOrEqual(10);
      // Every thread of the host, V8's own among them: none runs above the host's nice value.
      for (const tid of fs.readdirSync(`/proc/${t.pid}/task`)) expect(task(t.pid, Number(tid)).nice).toBeGreaterThanOrEqual(10);
    }
    expect(task(process.pid, process.pid).nice).toBe(0);
    expect(a.pid).not.toBe(b.pid);

    const uids = [a, b].map((t) => uidOf(`/proc/${t.pid}/task/${t.tid}`));
    if (!asRoot) {
      // A server that is not root cannot change user: its hosts run as itself.
      expect(uids).toEqual([process.getuid?.(), process.getuid?.()]);
    } else {
      const linkUid = uidOf(`/proc/${linkHost().pid}`);
      for (const uid of uids) {
        expect(uid).not.toBe(0);
        expect(uid).not.toBe(linkUid);
        expect(uid >= LAB_UID_BASE && uid < LAB_UID_BASE + LAB_UID_COUNT).toBe(false);
      }
      // One host's learner code cannot signal or read another host's runs.
      expect(uids[0]).not.toBe(uids[1]);
    }
    for (const run of runs) run.handle.stop();
    await Promise.all(runs.map((run) => run.done));
  });
});
