/**
 * One uid per lab (issue 29): a learner's Lua runs inside redis-server, so a
 * node that broke out would act as its lab's uid. As that uid it must reach
 * nothing of another lab's nodes (their folders, their /proc entries, their
 * signals) nor the link process, while its own lab's node stays its own.
 * Observed by acting as that uid (setpriv), not by reading the code's choice.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linkHost } from '@/server/cluster/link-host';
import { LAB_UID_BASE } from '@/server/cluster/lab-users';
import { startLab } from './lab-fixture';

const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

/** Runs `sh -c script` as `uid` (and its gid, no groups); true when it exits 0. */
function succeedsAs(uid: number, script: string): boolean {
  const done = spawnSync('setpriv', ['--reuid', String(uid), '--regid', String(uid), '--clear-groups', '--', 'sh', '-c', script], {
    cwd: '/',
    stdio: ['ignore', 'ignore', 'ignore'],
    timeout: 10_000,
  });
  if (done.error) throw done.error;
  return done.status === 0;
}

const asRoot = process.getuid?.() === 0;

describe('labs under a root server', () => {
  it("run each lab's nodes as a uid of its own, which reaches nothing of another lab's nodes nor the link process", async () => {
    const a = await startLab({ nodes: 2 });
    const b = await startLab({ nodes: 1 });
    if (!asRoot) {
      // A server that is not root cannot change user: its nodes run as itself.
      expect(uidOf(a.node(1).pid!)).toBe(process.getuid?.());
      return;
    }
    const aUid = uidOf(a.node(1).pid!);
    const bPid = b.node(1).pid!;
    expect(aUid).toBeGreaterThanOrEqual(LAB_UID_BASE);
    // Both of a lab's nodes share its uid; the other lab's differs, and so does the link process's.
    expect(uidOf(a.node(2).pid!)).toBe(aUid);
    expect(uidOf(bPid)).not.toBe(aUid);
    const link = linkHost().pid;
    expect(uidOf(link)).not.toBe(aUid);

    // Its own node: signal it, read its folder and environment (the positive control: the commands work).
    const own = a.node(1).pid!;
    expect(succeedsAs(aUid, `kill -0 ${own}`)).toBe(true);
    expect(succeedsAs(aUid, `ls /proc/${own}/cwd/ && cat /proc/${own}/environ`)).toBe(true);
    // The other lab's node and the link process: none of it.
    expect(succeedsAs(aUid, `kill -0 ${bPid}`)).toBe(false);
    expect(succeedsAs(aUid, `ls /proc/${bPid}/cwd/`)).toBe(false);
    expect(succeedsAs(aUid, `cat /proc/${bPid}/environ`)).toBe(false);
    expect(succeedsAs(aUid, `ls ${b.node(1).dir}`)).toBe(false);
    expect(succeedsAs(aUid, `kill -0 ${link}`)).toBe(false);
  });
});
