/**
 * Measures the slice a worker is spending inside learner code — the stretch
 * between entering QuickJS and getting control back — in CPU time of this
 * thread, and publishes it in the shared "busy" slots for the main thread's
 * watchdog. One per worker: a worker runs one client's code at a time.
 *
 * The interrupt handler asks `overrun()` very often (QuickJS calls it every
 * few thousand bytecodes), so the common answer costs one performance.now():
 * CPU time cannot grow faster than wall time, so /proc is read only once the
 * wall time spent in the slice exceeds what is left of the CPU budget, and
 * then not again before the budget could possibly be used up.
 */
import { BUSY, WALL_NET_FACTOR } from '../protocol';
import { threadCpuMs } from '../thread-cpu';

/** A CPU reading at most this old stands in for the slice's start (counting at most this much extra). */
const START_READING_MAX_AGE_MS = 5;
/** Never read /proc more often than this from one slice's interrupt checks. */
const MIN_RECHECK_MS = 2;
/** Slices shorter than this are charged their wall time (reading /proc would cost more than it corrects). */
const EXACT_CHARGE_FROM_MS = 5;

export type Overrun = 'slice' | 'total' | 'wall';

export class SliceMeter {
  private readonly tid: number | null;
  private lastReading = { cpuMs: 0, at: -Infinity };
  private startWall = 0;
  private startCpu: number | null = null;
  private sliceMs = 0;
  private totalLeftMs = Infinity;
  private wallNetMs = 0;
  /** Wall ms into the slice before which no budget can have been used up. */
  private nextCheckMs = 0;

  constructor(
    tid: number | null,
    private readonly busy: Float64Array,
  ) {
    this.tid = tid !== null && threadCpuMs(tid) !== null ? tid : null;
    busy[BUSY.tid] = this.tid ?? 0;
  }

  /** Whether limits are measured in CPU time (Linux) or only in wall time. */
  get measuresCpu(): boolean {
    return this.tid !== null;
  }

  /** Enters learner code: `sliceMs` of CPU for this slice, `totalLeftMs` of the client's whole budget. */
  begin(client: number, sliceMs: number, totalLeftMs: number): void {
    this.startWall = performance.now();
    this.startCpu = this.recentCpu(this.startWall);
    this.sliceMs = sliceMs;
    this.totalLeftMs = totalLeftMs;
    this.wallNetMs = WALL_NET_FACTOR * sliceMs;
    this.nextCheckMs = Math.min(sliceMs, totalLeftMs);
    this.busy[BUSY.client] = client;
    this.busy[BUSY.allowedMs] = sliceMs;
    this.busy[BUSY.cpuAtStart] = this.startCpu ?? -1;
    this.busy[BUSY.since] = Date.now();
  }

  /** For the interrupt handler: which limit the current slice has broken, if any. */
  overrun(): Overrun | null {
    const wall = performance.now() - this.startWall;
    if (wall <= this.nextCheckMs) return null;
    if (wall > this.wallNetMs) return 'wall';
    const used = this.cpuSinceStart() ?? wall;
    if (used > this.sliceMs) return 'slice';
    if (used > this.totalLeftMs) return 'total';
    const canLastMs = Math.min(this.sliceMs - used, this.totalLeftMs - used, this.wallNetMs - wall);
    this.nextCheckMs = wall + Math.max(MIN_RECHECK_MS, canLastMs);
    return null;
  }

  /** Leaves learner code; returns the CPU ms to charge to the client's total budget. */
  end(): number {
    this.busy[BUSY.since] = 0;
    const wall = performance.now() - this.startWall;
    if (wall < EXACT_CHARGE_FROM_MS) return wall;
    const cpu = this.cpuSinceStart();
    return cpu === null ? wall : Math.min(wall, cpu);
  }

  private cpuSinceStart(): number | null {
    if (this.tid === null || this.startCpu === null) return null;
    const now = threadCpuMs(this.tid);
    if (now === null) return null;
    this.lastReading = { cpuMs: now, at: performance.now() };
    return Math.max(0, now - this.startCpu);
  }

  /** A reading of this thread's CPU no older than START_READING_MAX_AGE_MS (a slice's start is very frequent). */
  private recentCpu(wallNow: number): number | null {
    if (this.tid === null) return null;
    if (wallNow - this.lastReading.at <= START_READING_MAX_AGE_MS) return this.lastReading.cpuMs;
    const cpu = threadCpuMs(this.tid);
    if (cpu === null) return null;
    this.lastReading = { cpuMs: cpu, at: wallNow };
    return cpu;
  }
}
