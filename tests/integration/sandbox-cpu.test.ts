/**
 * The sandbox's time limits count CPU time of the worker thread, not wall
 * time: on a loaded machine a worker may wait for a core far longer than its
 * slice, and that must not stop (or terminate) an innocent program. A thread
 * blocked in Atomics.wait stands in for a descheduled one: wall time passes,
 * its CPU time does not.
 */
import { describe, expect, it } from 'vitest';
import { BUSY, BUSY_SLOTS, WALL_NET_FACTOR } from '@/server/sandbox/protocol';
import { currentThreadId, threadCpuAvailable, threadCpuMs } from '@/server/sandbox/thread-cpu';
import { stuckInLearnerCode } from '@/server/sandbox/watchdog';
import { SliceMeter } from '@/server/sandbox/worker/slice-meter';

const tid = currentThreadId();
const linux = threadCpuAvailable(tid);

/** Blocks this thread without using CPU, like a thread the scheduler does not run. */
function blockWithoutCpu(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Uses `ms` of this thread's CPU time (however long that takes on a loaded machine). */
function spin(ms: number): void {
  const start = threadCpuMs(tid!)!;
  while (threadCpuMs(tid!)! - start < ms) {
    for (let i = 0; i < 10_000; i++) Math.sqrt(i);
  }
}

function busySlots(): Float64Array {
  return new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * BUSY_SLOTS));
}

describe.skipIf(!linux)('thread CPU time (Linux /proc)', () => {
  it('counts a spinning thread and not a blocked one', () => {
    const t = tid!;
    const before = threadCpuMs(t)!;
    blockWithoutCpu(150);
    const afterBlock = threadCpuMs(t)!;
    const spinStart = performance.now();
    spin(150);
    const spinWall = performance.now() - spinStart;
    const afterSpin = threadCpuMs(t)!;
    expect(afterBlock - before).toBeLessThan(50);
    expect(afterSpin - afterBlock).toBeGreaterThanOrEqual(150);
    expect(afterSpin - afterBlock).toBeLessThanOrEqual(spinWall + 20);
  });

  it('a slice blocked past its limit is not over; spinning past it is', () => {
    const busy = busySlots();
    const meter = new SliceMeter(tid, busy);
    expect(meter.measuresCpu).toBe(true);
    meter.begin(3, 100, Infinity);
    expect(busy[BUSY.since]).toBeGreaterThan(0);
    expect(busy[BUSY.client]).toBe(3);
    expect(busy[BUSY.tid]).toBe(tid);
    expect(busy[BUSY.cpuAtStart]).toBeGreaterThanOrEqual(0);
    blockWithoutCpu(250);
    expect(meter.overrun()).toBeNull();
    spin(160);
    expect(meter.overrun()).toBe('slice');
    const charged = meter.end();
    expect(busy[BUSY.since]).toBe(0);
    // Charged its CPU (~160 ms), not the ~410 ms of wall time.
    expect(charged).toBeGreaterThan(100);
    expect(charged).toBeLessThan(330);
  });

  it("the client's total CPU budget is checked the same way", () => {
    const meter = new SliceMeter(tid, busySlots());
    meter.begin(1, 1_000, 60);
    blockWithoutCpu(120);
    expect(meter.overrun()).toBeNull();
    spin(100);
    expect(meter.overrun()).toBe('total');
    meter.end();
  });

  it('wall clock is the safety net: a slice that never gets to run still ends', () => {
    const meter = new SliceMeter(tid, busySlots());
    meter.begin(1, 20, Infinity);
    blockWithoutCpu(WALL_NET_FACTOR * 20 + 30);
    expect(meter.overrun()).toBe('wall');
    meter.end();
  });

  it('the main-thread watchdog spares a descheduled worker and terminates a spinning one', () => {
    const busy = busySlots();
    busy[BUSY.tid] = 4242;
    busy[BUSY.client] = 2;
    busy[BUSY.allowedMs] = 200;
    busy[BUSY.cpuAtStart] = 1_000;
    const now = 1_700_000_000_000;
    busy[BUSY.since] = now - 900;
    let cpu = 1_050;
    const read = (t: number) => (t === 4242 ? cpu : null);
    // 900 ms inside learner code, 50 ms of CPU: waiting for a core, not stuck.
    expect(stuckInLearnerCode(busy, now, 400, read)).toBeNull();
    cpu = 1_700;
    expect(stuckInLearnerCode(busy, now, 400, read)?.message).toMatch(/Client 2 kept the CPU for more than 600 ms/);
    // Not scheduled at all for ten slices: terminated anyway.
    cpu = 1_000;
    busy[BUSY.since] = now - (WALL_NET_FACTOR * 200 + 401);
    expect(stuckInLearnerCode(busy, now, 400, read)?.message).toMatch(/did not answer for more than 2400 ms/);
    // Outside learner code: nothing to judge.
    busy[BUSY.since] = 0;
    expect(stuckInLearnerCode(busy, now, 400, read)).toBeNull();
  });
});

describe('without a CPU clock', () => {
  it('the watchdog falls back to wall time', () => {
    const busy = busySlots();
    busy[BUSY.allowedMs] = 200;
    busy[BUSY.cpuAtStart] = -1;
    busy[BUSY.since] = 10_000;
    expect(stuckInLearnerCode(busy, 10_000 + 500, 400, () => null)).toBeNull();
    expect(stuckInLearnerCode(busy, 10_000 + 700, 400, () => null)?.message).toMatch(/kept the CPU for more than 600 ms/);
  });
});
