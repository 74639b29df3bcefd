/**
 * The main thread's verdict on a worker that has not come back from learner
 * code: its own interrupt handler stops ordinary endless loops, but inside one
 * huge allocation (or a thread that cannot get a core) it never runs, so the
 * pool terminates the worker from outside. Judged on the worker thread's CPU
 * time, so a worker that merely waits for a core on a loaded machine is left
 * alone; wall clock only as a far larger safety net.
 */
import { say } from '@/lib/checker/said';
import type { Said } from '@/lib/words';
import { BUSY, WALL_NET_FACTOR } from './protocol';
import { threadCpuMs } from './thread-cpu';

/** Why the worker must be terminated, or null while it may still come back by itself. */
export function stuckInLearnerCode(
  busy: Float64Array,
  epochNow: number,
  hardKillGraceMs: number,
  readThreadCpuMs: (tid: number) => number | null = threadCpuMs,
): Said | null {
  const since = busy[BUSY.since] ?? 0;
  if (since <= 0) return null;
  const wallMs = epochNow - since;
  const sliceMs = busy[BUSY.allowedMs] ?? 0;
  const allowedMs = sliceMs + hardKillGraceMs;
  // CPU time never runs ahead of wall time: until then no /proc read is needed.
  if (wallMs <= allowedMs) return null;
  const client = busy[BUSY.client] ?? 0;
  const tid = busy[BUSY.tid] ?? 0;
  const cpuAtStart = busy[BUSY.cpuAtStart] ?? -1;
  const cpuNow = tid > 0 && cpuAtStart >= 0 ? readThreadCpuMs(tid) : null;
  if (cpuNow === null || cpuNow - cpuAtStart > allowedMs) {
    return say('runNotes.cpuKept', { client: { client }, ms: String(Math.round(allowedMs)) });
  }
  const wallNetMs = WALL_NET_FACTOR * sliceMs + hardKillGraceMs;
  if (wallMs > wallNetMs) {
    return say('runNotes.noAnswer', { client: { client }, ms: String(Math.round(wallNetMs)) });
  }
  return null;
}
