/**
 * One client's limits, and the first one it broke.
 *
 * Each entry into learner code is a CPU slice, measured by the worker's
 * SliceMeter and watched by QuickJS's interrupt handler; console output and the
 * Redis command rate are counted by the host calls that spend them. Breaking a
 * limit *trips* the client, and the trip is final: the interrupt handler keeps
 * saying "interrupt", so a `.catch` in learner code cannot swallow it and loop
 * again, and the client is torn down as soon as control is back in the host.
 */
import type { Said } from '@/lib/words';
import { WALL_NET_FACTOR } from '../protocol';
import type { SandboxLimits } from '../types';
import type { Overrun, SliceMeter } from './slice-meter';
import { LIMIT_WORDS } from './limit-words';

/** Slice allowed for evaluating the lab's own guest modules when a client boots. */
const BOOT_SLICE_MS = 2_000;

export class ClientLimits {
  private tripMessage: Said | null = null;
  /** The trip was a slice that never yielded (an endless loop, most likely), not a budget spent over time. */
  private tripSpun = false;
  private inSlice = false;
  /** CPU charged to this client so far (its own slices only; the lab's boot is free). */
  private cpuUsedMs = 0;
  private sliceLimitMs = 0;
  private booting = false;
  private consoleBytes = 0;
  private commandWindow = { start: 0, count: 0 };

  constructor(
    private readonly client: number,
    private readonly limits: SandboxLimits,
    private readonly meter: SliceMeter,
  ) {}

  /** Why the run must stop, once a limit is broken; final. */
  get trip(): Said | null {
    return this.tripMessage;
  }

  /** The client was stopped inside one slice that ran too long: somewhere in learner code is a loop worth pointing at. */
  get spun(): boolean {
    return this.tripSpun;
  }

  /** Inside learner code right now (the host must not tear the client down under it). */
  get inside(): boolean {
    return this.inSlice;
  }

  get isBooting(): boolean {
    return this.booting;
  }

  /** Our own modules are trusted and, on a cold worker, slow to evaluate: a generous slice the learner does not pay for. */
  beginBoot(): void {
    this.sliceLimitMs = BOOT_SLICE_MS;
    this.booting = true;
  }

  endBoot(): void {
    this.sliceLimitMs = this.limits.cpuSliceMs;
    this.cpuUsedMs = 0;
    this.booting = false;
  }

  beginSlice(): void {
    this.inSlice = true;
    this.meter.begin(this.client, this.sliceLimitMs, this.booting ? Infinity : this.limits.cpuTotalMs - this.cpuUsedMs);
  }

  endSlice(): void {
    this.cpuUsedMs += this.meter.end();
    this.inSlice = false;
  }

  /** QuickJS's interrupt handler: called very often, so the common answer must stay cheap (see SliceMeter). */
  shouldInterrupt(): boolean {
    if (this.tripMessage) return true;
    if (!this.inSlice) return false;
    const overrun = this.meter.overrun();
    if (overrun === null) return false;
    this.tripMessage = this.overrunMessage(overrun);
    this.tripSpun = overrun !== 'total';
    return true;
  }

  /** Counts one console line; past the budget it trips and throws, so the line is never recorded. */
  countConsole(text: string): void {
    this.consoleBytes += Buffer.byteLength(text) + 1;
    if (this.consoleBytes > this.limits.consoleBytes) {
      this.tripMessage = LIMIT_WORDS.consoleLimit(this.client, Math.round(this.limits.consoleBytes / 1024));
      throw new Error('console output limit reached');
    }
  }

  /** Counts one Redis command against the per-second rate; past it, trips and throws before the command is sent. */
  countCommand(): void {
    const now = performance.now();
    if (now - this.commandWindow.start >= 1000) this.commandWindow = { start: now, count: 0 };
    this.commandWindow.count += 1;
    if (this.commandWindow.count > this.limits.commandsPerSecond) {
      this.tripMessage = LIMIT_WORDS.commandRate(this.client, this.limits.commandsPerSecond);
      throw new Error('Redis command rate limit reached');
    }
  }

  /** QuickJS hit the runtime's memory limit. */
  outOfMemory(): void {
    this.tripMessage = LIMIT_WORDS.outOfMemory(this.client, Math.round(this.limits.memoryBytes / 1048576));
  }

  private overrunMessage(overrun: Overrun): Said {
    switch (overrun) {
      case 'slice':
        return LIMIT_WORDS.sliceOverrun(this.client, this.limits.cpuSliceMs);
      case 'wall':
        return LIMIT_WORDS.wallOverrun(this.client, WALL_NET_FACTOR * this.sliceLimitMs);
      case 'total':
        return LIMIT_WORDS.cpuTotal(this.client, this.limits.cpuTotalMs);
    }
  }
}

/** QuickJS says so in the error's message; there is no error class for it. */
export function isOutOfMemory(error: { message: string }): boolean {
  return /out of memory/i.test(error.message);
}
