/**
 * Each lab's share of the link process's descriptors (issue 28, item 3): the share from the process's
 * RLIMIT_NOFILE, a lab held to it while others go on, sockets given back, refusals reported once a second.
 */
import { describe, expect, it } from 'vitest';
import { LabSockets, LISTENERS_PER_LAB, MIN_SOCKETS_PER_LAB, openFileLimit, socketsPerLab, type SocketsRefused } from '@/server/cluster/link-host/lab-sockets';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            20000                40000                files
Max locked memory         8388608              8388608              bytes
`;

describe("a lab's share of the link process's descriptors", () => {
  it('reads the soft limit of open files, and this process has one', () => {
    expect(openFileLimit(LIMITS)).toBe(20_000);
    expect(openFileLimit(LIMITS.replace('20000 ', 'unlimited '))).toBe(Number.MAX_SAFE_INTEGER);
    expect(openFileLimit('nothing here')).toBe(1024);
    expect(openFileLimit()).toBeGreaterThan(0);
  });

  it("divides the limit, less the process's own, among the labs, never below the floor", () => {
    expect(socketsPerLab(20_000, 66)).toBe(Math.floor((20_000 - 64) / 66));
    expect(socketsPerLab(20_000, 66)).toBe(302);
    // Every lab at its share fits in the limit; a lab's listeners at worst leave most of its share to connections.
    expect(66 * socketsPerLab(20_000, 66)).toBeLessThanOrEqual(20_000);
    expect(LISTENERS_PER_LAB).toBe(16 * 7 + 1);
    expect(socketsPerLab(20_000, 66) - LISTENERS_PER_LAB).toBeGreaterThan(128);
    expect(socketsPerLab(1024, 66)).toBe(MIN_SOCKETS_PER_LAB);
  });

  it('holds one lab to its share while another goes on, takes back what is given, and reports a refusal once a second', () => {
    const reports: SocketsRefused[] = [];
    const sockets = new LabSockets((r) => reports.push(r), 20_000, { labs: 1, perLab: 3 });
    const a = sockets.account('a');
    const b = sockets.account('b');
    expect([a.take(), a.take(), a.take(), a.take(), a.take()]).toEqual([true, true, true, false, false]);
    expect(reports).toEqual([{ lab: 'a', held: 3, perLab: 3 }]);
    // Another lab goes on; a listening socket is counted, never refused.
    expect(b.take()).toBe(true);
    b.hold();
    b.hold();
    b.hold();
    expect(b.take()).toBe(false);
    b.give();
    expect(sockets.heldBy('a')).toBe(3);
    expect(sockets.heldBy('b')).toBe(3);
    a.give();
    expect(a.take()).toBe(true);
    sockets.configure({ labs: 66, perLab: null });
    expect(sockets.budget).toBe(302);
  });
});
