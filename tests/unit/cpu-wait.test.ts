import { describe, expect, it } from 'vitest';
import { CpuWaitMeter, runQueueDelayMs } from '@/server/runs/cpu-wait';
import { disturbed, CPU_WAIT_LIMIT_MS } from '@/server/grading/disturbance';

/** A fake /proc: each pid's run-queue delay (ms) is whatever the test sets. */
function fakeProc() {
  const delay = new Map<number, number>();
  return { delay, read: (pid: number) => delay.get(pid) ?? null };
}

describe('CpuWaitMeter', () => {
  it('reports the most one process waited within any ten samples (one second)', () => {
    const proc = fakeProc();
    proc.delay.set(10, 1_000).set(20, 50);
    const meter = new CpuWaitMeter(() => [10, 20], proc.read);
    // Process 10 waits 30 ms in each of twelve periods: any ten of them sum to 300 ms.
    for (let i = 1; i <= 12; i++) {
      proc.delay.set(10, 1_000 + 30 * i);
      meter.sample();
    }
    // Process 20 waits 250 ms once: less than 300.
    proc.delay.set(20, 300);
    expect(meter.stop()).toBe(300);
  });

  it('does not count what a process waited before the run, nor a restarted node’s past', () => {
    const proc = fakeProc();
    proc.delay.set(10, 9_999);
    const meter = new CpuWaitMeter(() => [proc.delay.has(11) ? 11 : 10], proc.read);
    proc.delay.set(10, 10_004);
    meter.sample();
    // The node restarted as pid 11 with a large counter of its own: met now, counted from now.
    proc.delay.set(11, 50_000);
    meter.sample();
    proc.delay.set(11, 50_003);
    expect(meter.stop()).toBe(5);
  });

  it('skips pids that are gone or unknown, and never goes negative', () => {
    const proc = fakeProc();
    proc.delay.set(10, 100);
    const meter = new CpuWaitMeter(() => [null, -1, 0, 10, 99], proc.read);
    proc.delay.set(10, 90); // a counter read out of order must not count as a wait
    expect(meter.stop()).toBe(0);
  });

  it('follows a thread of another process by its pid and tid (a run\'s worker in its sandbox host)', () => {
    const read = (pid: number, tid?: number) => (pid === 7 && tid === 70 ? reading : null);
    let reading = 100;
    const meter = new CpuWaitMeter(() => [{ pid: 7, tid: 70 }, null], read);
    reading = 140;
    meter.sample();
    expect(meter.stop()).toBe(40);
  });

  it('reads this process’s own run-queue delay from Linux', () => {
    const ms = runQueueDelayMs(process.pid);
    // Linux with schedstat (this machine and CI): a number; elsewhere null, and runs report no figure.
    if (ms !== null) expect(ms).toBeGreaterThanOrEqual(0);
    expect(runQueueDelayMs(2 ** 22 + 7)).toBeNull();
    // A thread by pid and tid: the main thread is a task of its process; a tid of another process is not.
    if (ms !== null) expect(runQueueDelayMs(process.pid, process.pid)).toBeGreaterThanOrEqual(0);
    expect(runQueueDelayMs(process.pid, 2 ** 22 + 7)).toBeNull();
  });
});

describe('disturbed runs', () => {
  it('are those whose processes waited for a CPU at least the limit; a run without the figure is not', () => {
    expect(disturbed({ cpuWaitMs: CPU_WAIT_LIMIT_MS })).toBe(true);
    expect(disturbed({ cpuWaitMs: CPU_WAIT_LIMIT_MS - 1 })).toBe(false);
    expect(disturbed({})).toBe(false);
    expect(disturbed(null)).toBe(false);
  });
});
