/**
 * One direction of a connection with latency: each message is delivered a
 * drawn delay after it was sent, but never before the one sent ahead of it
 * (one TCP connection keeps its order, however its delays vary). One timer,
 * for the head of the line, since Node does not promise that timers of
 * different durations due at the same moment fire in the order they were set.
 */
interface InFlight {
  dueAt: number;
  deliver: () => void;
}

export class LatencyLine {
  private readonly queue: InFlight[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastDueAt = 0;

  /** Sends a message that `deliver`s after `delayMs`, in order behind what is already on the line. */
  send(delayMs: number, deliver: () => void): void {
    const dueAt = Math.max(performance.now() + delayMs, this.lastDueAt);
    this.lastDueAt = dueAt;
    this.queue.push({ dueAt, deliver });
    if (this.queue.length === 1) this.arm();
  }

  /** Messages sent and not yet delivered. */
  get size(): number {
    return this.queue.length;
  }

  /** The line is gone (the run ended): nothing on it is delivered. */
  cut(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue.length = 0;
  }

  private arm(): void {
    const head = this.queue[0];
    if (!head) return;
    this.timer = setTimeout(() => this.deliverDue(), Math.max(0, head.dueAt - performance.now()));
  }

  private deliverDue(): void {
    this.timer = null;
    // setTimeout may fire a fraction of a ms early against performance.now(); the margin keeps a due message from waiting a whole extra turn.
    while (this.queue.length > 0 && (this.queue[0]?.dueAt ?? Infinity) <= performance.now() + 0.5) this.queue.shift()?.deliver();
    this.arm();
  }
}
