/**
 * CPU time actually consumed by one thread of this process, read from Linux's
 * /proc. Node 20 has no per-thread CPU clock, and the sandbox's time limits
 * must not count the time a worker spends descheduled on a loaded machine
 * (wall clock would kill innocent programs there).
 *
 * `schedstat` gives the scheduler's own runtime in nanoseconds; `stat` (utime +
 * stime in USER_HZ ticks, 10 ms) is the fallback where schedstat is compiled
 * out. Either is refreshed by the kernel at least every scheduler tick, so a
 * reading may lag by a few ms. A read costs ~15 µs: callers read only when a
 * cheap wall-clock check says a limit may have been reached.
 */
import { readFileSync, readlinkSync } from 'node:fs';

/** Linux's USER_HZ, fixed at 100 for /proc on every architecture Node runs on. */
const MS_PER_TICK = 10;

/** The calling thread's id (Linux tid), or null where /proc/thread-self does not exist. */
export function currentThreadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** CPU milliseconds thread `tid` of this process has run (user + system), or null if unreadable. */
export function threadCpuMs(tid: number): number | null {
  return fromSchedstat(tid) ?? fromStat(tid);
}

/** Whether this machine can measure a thread's CPU at all (decides between CPU and wall-clock limits). */
export function threadCpuAvailable(tid: number | null): boolean {
  return tid !== null && threadCpuMs(tid) !== null;
}

function fromSchedstat(tid: number): number | null {
  try {
    const text = readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1');
    const ns = Number(text.slice(0, text.indexOf(' ')));
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    return null;
  }
}

function fromStat(tid: number): number | null {
  try {
    const text = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1');
    // The command name (field 2) may contain spaces and parentheses: count fields after the last ')'.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // rest[0] is field 3 (state), so utime (14) and stime (15) are rest[11] and rest[12].
    const ticks = Number(rest[11]) + Number(rest[12]);
    return Number.isFinite(ticks) ? ticks * MS_PER_TICK : null;
  } catch {
    return null;
  }
}
