/**
 * The node host (issue 29, item 3): every redis-server is started by a small
 * process of its own, so the web server's event loop never forks. Observed in
 * /proc — whose child a node is, at what nice value — and by killing the host:
 * its nodes go with it, each is reported down, and the next start works.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeHost } from '@/server/cluster/node-host/node-host';
import { LEARNER_NICE } from '@/server/ops/priority';
import { startLab } from './lab-fixture';

/** Parent PID and nice value of a process, from /proc/<pid>/stat (fields 4 and 19). */
function stat(pid: number): { ppid: number; nice: number } {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(rest[1]), nice: Number(rest[16]) };
}

const running = (pid: number): boolean => {
  try {
    // A zombie has exited; only its parent's wait is missing.
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the node host', () => {
  it("starts every node as its own child, below the server's priority; the server forks none", async () => {
    const lab = await startLab({ nodes: 3 });
    const host = nodeHost().runningPid;
    expect(host).toBeGreaterThan(0);
    expect(stat(host).ppid).toBe(process.pid);
    for (const node of lab.nodes) {
      const pid = node.pid!;
      expect(stat(pid).ppid).toBe(host);
      expect(stat(pid).nice).toBe(LEARNER_NICE);
    }
  });

  it('takes its nodes with it when it dies; each is reported down, and the next lab starts on a new host', async () => {
    const lab = await startLab({ nodes: 2 });
    const host = nodeHost().runningPid;
    const pids = lab.nodes.map((node) => node.pid!);
    const reasons: string[] = [];
    for (const node of lab.nodes) node.on('state', (change) => change.state === 'down' && reasons.push(change.reason));

    process.kill(host, 'SIGKILL');
    await until(() => lab.nodes.every((node) => node.state === 'down'), 'every node of the lab is down');
    await until(() => pids.every((pid) => !running(pid)), 'no redis-server of the lab runs');
    expect(reasons).toHaveLength(2);
    for (const reason of reasons) expect(reason).toMatch(/node host/);

    const next = await startLab({ nodes: 1 });
    expect(next.nodes[0]!.state).toBe('up');
    expect(nodeHost().runningPid).not.toBe(host);
    expect(stat(next.nodes[0]!.pid!).ppid).toBe(nodeHost().runningPid);
  });
});
