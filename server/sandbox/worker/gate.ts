/**
 * A client's pause gate. Every way the host reaches into the client (a reply,
 * a timer, a connection event, the start itself) is a *delivery* that passes
 * the gate: while the client is paused the deliveries queue and arrive late,
 * in their order, exactly like a process stopped by a GC pause.
 */

export type Delivery = () => void;

export class Gate {
  private paused = false;
  private resumeTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly queue: Delivery[] = [];

  /** `closed`: the client has ended, so nothing passes any more and nothing is kept. */
  constructor(private readonly closed: () => boolean) {}

  get isPaused(): boolean {
    return this.paused;
  }

  /** Deliveries held back by a pause: they keep the client alive like any pending I/O. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Runs `work` now, or queues it until the client resumes. */
  pass(work: Delivery): void {
    if (this.closed()) return;
    if (this.paused) this.queue.push(work);
    else work();
  }

  /** Closes the gate; with `ms`, `resume` is called after that long (a later pause replaces the timer). */
  pause(ms: number | undefined, resume: () => void): void {
    this.paused = true;
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = ms !== undefined ? setTimeout(resume, ms) : null;
  }

  /** Opens the gate; the caller records the resume first, then `release()`s what waited, so the history reads in that order. */
  open(): void {
    this.paused = false;
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
  }

  /** Delivers what waited, in order, until a delivery pauses or ends the client again. */
  release(): void {
    while (this.queue.length > 0 && !this.paused && !this.closed()) this.queue.shift()?.();
  }

  /** The client ended: drop what waited and the pending resume. */
  close(): void {
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.queue.length = 0;
  }
}
