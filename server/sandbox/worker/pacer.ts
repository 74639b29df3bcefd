/**
 * A run's share of the server's Redis command budget. Every command a learner
 * sends becomes history the server's one event loop must take in, check and
 * push to browsers; twenty labs looping Redlock flat out sent it 110,000
 * events a second and a kill in another lab took seconds to show. The pool
 * divides a server-wide rate among the runs going (fair per lab, however many
 * clients a run has) and each run's commands wait here, in order, for their
 * turn. A busy loop just runs slower, as against a slower Redis; a lesson's
 * run, which sends a few hundred commands a second at most, never waits.
 */
export class Pacer {
  private rate = Infinity;
  private tokens = 0;
  private last = performance.now();
  private readonly waiting: { n: number; go: () => void }[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** Commands per second this run may send from now on (Infinity: unpaced). */
  setRate(perSecond: number): void {
    this.refill();
    this.rate = perSecond > 0 ? perSecond : Infinity;
    this.tokens = Math.min(this.tokens, this.capacity);
    this.drain();
  }

  /** A tenth of a second of budget: enough for a Redlock round's burst of five, small enough to pace a loop. */
  private get capacity(): number {
    return Math.max(10, this.rate / 10);
  }

  private refill(): void {
    const now = performance.now();
    if (Number.isFinite(this.rate)) this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) * this.rate) / 1000);
    this.last = now;
  }

  /** Runs `go` once `n` commands may be sent; first come, first served, so each client's commands keep their order. */
  admit(n: number, go: () => void): void {
    if (!Number.isFinite(this.rate) && this.waiting.length === 0) return go();
    this.waiting.push({ n, go });
    this.drain();
  }

  private drain(): void {
    this.refill();
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      // A batch larger than the bucket goes once the bucket is full, and leaves it in debt.
      const need = Math.min(next.n, this.capacity);
      if (Number.isFinite(this.rate) && this.tokens < need) break;
      this.waiting.shift();
      if (Number.isFinite(this.rate)) this.tokens -= next.n;
      next.go();
    }
    if (this.waiting.length === 0 || this.timer) return;
    const wait = Math.max(1, ((Math.min(this.waiting[0]!.n, this.capacity) - this.tokens) * 1000) / this.rate);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.drain();
    }, wait);
  }

  /** Drops what waits (the run is over). */
  clear(): void {
    this.waiting.length = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
