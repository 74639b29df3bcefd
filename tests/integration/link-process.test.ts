/**
 * The link process: every learner byte goes through link proxies in a
 * process of their own, below the web server's priority, unprivileged when
 * the server is root; when it dies, the links come back on their ports with
 * their faults, and the lab goes on.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linkHost } from '@/server/cluster/link-host';
import { LEARNER_NICE } from '@/server/ops/priority';
import { alive, fault, learnerVia, startLab, tcpConnect, waitFor } from './lab-fixture';

/** The PIDs whose open files include the TCP socket listening on `port` on loopback. */
function listenersOf(port: number, among: number[]): number[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const line of fs.readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    // local address 0100007F:PORT, state 0A = LISTEN, inode in column 10
    if (cols[1] === `0100007F:${hexPort}` && cols[3] === '0A') inodes.add(cols[9]!);
  }
  return among.filter((pid) => fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
    try {
      const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      return inodes.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '');
    } catch {
      return false;
    }
  }));
}

function niceOf(pid: number): number {
  // /proc/<pid>/stat: the command is in parentheses and may hold spaces; nice is field 19.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

function uidOf(pid: number): number {
  return Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

describe('the link process', () => {
  it('listens on the links, not the web server, below its priority and unprivileged when the server is root', async () => {
    const lab = await startLab({ nodes: 2 });
    const port = await lab.links.portFor(1, 1);
    const redis = await learnerVia(lab, 1, 1);
    expect(await redis.ping()).toBe('PONG');
    const host = linkHost().pid;
    expect(host).not.toBe(process.pid);
    expect(listenersOf(port, [host, process.pid])).toEqual([host]);
    expect(niceOf(host)).toBe(LEARNER_NICE);
    if (process.getuid?.() === 0) expect(uidOf(host)).toBe(65534);
    else expect(uidOf(host)).toBe(process.getuid?.());
  });

  it('when it dies, the lab goes on: its links listen again on their ports, with their cuts and delays', async () => {
    const lab = await startLab({ nodes: 3 });
    const plain = await lab.links.portFor(1, 1);
    const refused = await lab.links.portFor(1, 2);
    await fault(lab, 'link-cut', { client: 1, node: 2, mode: 'refuse' });
    await fault(lab, 'link-delay', { client: 1, node: 3, delayMs: 80 });
    expect(await tcpConnect(refused)).toBe('ECONNREFUSED');

    const before = linkHost().pid;
    const starts = linkHost().starts;
    process.kill(before, 'SIGKILL');
    await waitFor(() => !alive(before), 'the link process to be gone');
    await waitFor(() => linkHost().starts > starts, 'a new link process');
    expect(linkHost().pid).not.toBe(before);

    // The same ports, as the learners' clients remember them, and the same faults.
    await waitFor(async () => (await tcpConnect(plain)) === 'connected', 'the plain link to listen again');
    const redis = await learnerVia(lab, 1, 1);
    expect(await redis.ping()).toBe('PONG');
    expect(await tcpConnect(refused)).toBe('ECONNREFUSED');
    const slow = await learnerVia(lab, 1, 3, 2_000);
    await slow.ping();
    const began = performance.now();
    await slow.ping();
    expect(performance.now() - began).toBeGreaterThanOrEqual(150); // 80 ms each way, less timer rounding
    // And the lab's commands work on them: the refused link heals on its port.
    await fault(lab, 'link-heal', { client: 1, node: 2 });
    const healed = await learnerVia(lab, 1, 2);
    expect(healed.options.port).toBe(refused);
    expect(await healed.ping()).toBe('PONG');
  });
});
