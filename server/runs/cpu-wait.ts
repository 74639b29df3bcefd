/**
 * How long a run's processes waited for a CPU while it ran.
 *
 * Linux counts, per task, the time it spent runnable but waiting on a run
 * queue (`/proc/<pid>/schedstat`, second field, ns). On an idle machine that
 * stays near zero; when other labs, builds or anything else take the cores, a
 * redis-server's reply or a scenario's timer waits for a CPU, and a lock
 * whose margins are hundreds of milliseconds can fail for the machine's sake,
 * not the learner's. The grader must tell those runs apart ("a right one must
 * never fail because the machine is busy"), so every run measures this.
 *
 * The figure is the worst *sliding second* of any one process: the most any
 * of them waited within 1 s. A total over the whole run would hide one long
 * stall in a long run; a single sample would miss a stall spread over a few
 * samples. (A reply held up for most of a second is what breaks a lesson's
 * margins: a 1 s command timeout, a 700 ms TTL with a 300 ms job.)
 */
import { readFileSync } from 'node:fs';

const PERIOD_MS = 100;
/** Samples per window: 10 × 100 ms = the second the figure is about. */
const WINDOW = 10;

/** A thread of another process (a run's worker in its sandbox host): /proc/<pid>/task/<tid>. */
export interface Task {
  pid: number;
  tid: number;
}

/**
 * Run-queue delay in ms of one task: a process's main thread, or with `tid` a thread of process `pid`
 * (/proc/<pid>/task/<tid>, which says the thread is that process's, not a recycled tid of another);
 * null when it is gone or /proc has no schedstat.
 */
export function runQueueDelayMs(pid: number, tid?: number): number | null {
  try {
    const path = tid === undefined ? `/proc/${pid}/schedstat` : `/proc/${pid}/task/${tid}/schedstat`;
    const fields = readFileSync(path, 'utf8').split(' ');
    const ns = Number(fields[1]);
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    return null;
  }
}

export class CpuWaitMeter {
  /** Per pid (or a thread's tid): the last reading and the waits of the last WINDOW periods. */
  private readonly tracks = new Map<number, { last: number; recent: number[] }>();
  private worst = 0;
  private readonly timer: NodeJS.Timeout;

  /** `pids` is asked at every sample: a node restarted mid-run has a new pid. A thread of another process is a `Task`. */
  constructor(
    private readonly pids: () => readonly (number | Task | null)[],
    read: (pid: number, tid?: number) => number | null = runQueueDelayMs,
  ) {
    this.read = read;
    this.sample();
    this.timer = setInterval(() => this.sample(), PERIOD_MS);
    this.timer.unref();
  }

  private readonly read: (pid: number, tid?: number) => number | null;

  /** Takes one sample now (also called by the timer). */
  sample(): void {
    const seen = new Set<number>();
    for (const task of this.pids()) {
      if (task === null) continue;
      // Thread ids and pids are one numbering: a tid names its thread as well as a pid names a process.
      const pid = typeof task === 'number' ? task : task.tid;
      if (pid <= 0 || seen.has(pid)) continue;
      seen.add(pid);
      const now = typeof task === 'number' ? this.read(task) : this.read(task.pid, task.tid);
      if (now === null) continue;
      const track = this.tracks.get(pid);
      if (!track) {
        // A process met now (a node restarted): its past waits were not this run's.
        this.tracks.set(pid, { last: now, recent: [] });
        continue;
      }
      track.recent.push(Math.max(0, now - track.last));
      if (track.recent.length > WINDOW) track.recent.shift();
      track.last = now;
      this.worst = Math.max(this.worst, track.recent.reduce((a, b) => a + b, 0));
    }
    for (const pid of this.tracks.keys()) if (!seen.has(pid)) this.tracks.delete(pid);
  }

  /** Stops sampling; the worst wait within any second of the run, in ms (rounded). */
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return Math.round(this.worst);
  }
}
