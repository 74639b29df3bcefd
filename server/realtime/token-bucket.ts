/**
 * A token bucket per socket: a burst of `burst` actions, then `perSecond`
 * sustained. A socket that sends faster is refused with `rate-limited` and
 * nothing happens, so one tab cannot flood a lab (every restart spawns a
 * redis-server) or a classroom's roster.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Takes one token if there is one. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** How long until the next token, in ms (for the error message). */
  get waitMs(): number {
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.perSecond) * 1000);
  }
}
