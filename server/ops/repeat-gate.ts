/**
 * Log lines that an attacker can make the server write are bounded like
 * everything else they can make it do. One hostile script once wrote 987
 * refusal lines in a few seconds: a disk and a reader's attention spent on
 * one fact repeated. Here the first line of a kind (a reason for one browser)
 * is written in full; the same kind again within the window is only counted,
 * and once the window has passed one line says how many there were. Kinds
 * are bounded too: past MAX_KINDS at once, new kinds share one count.
 */
export const REPEAT_WINDOW_MS = 10_000;
export const MAX_KINDS = 1_000;
const OVERFLOW = '(many kinds)';

export interface Repeats {
  kind: string;
  /** Lines not written since the one that was. */
  repeats: number;
  windowMs: number;
}

export class RepeatGate {
  private readonly open = new Map<string, { since: number; repeats: number }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    /** Writes the summary of a kind whose window has passed with repeats in it. */
    private readonly summarize: (repeats: Repeats) => void,
    private readonly now: () => number = Date.now,
    private readonly windowMs = REPEAT_WINDOW_MS,
  ) {}

  /** Whether this line of `kind` is to be written (the first of its window), or only counted. */
  admit(kind: string): boolean {
    this.sweep();
    const key = this.open.has(kind) || this.open.size < MAX_KINDS ? kind : OVERFLOW;
    const entry = this.open.get(key);
    if (entry) {
      entry.repeats++;
      this.schedule();
      return false;
    }
    this.open.set(key, { since: this.now(), repeats: 0 });
    this.schedule();
    return key === kind;
  }

  /** Ends every window that has passed: each with repeats says so in one line. */
  sweep(): void {
    const now = this.now();
    for (const [kind, entry] of this.open) {
      if (now - entry.since < this.windowMs) continue;
      this.open.delete(kind);
      if (entry.repeats > 0) this.summarize({ kind, repeats: entry.repeats, windowMs: this.windowMs });
    }
  }

  /** A timer while any window is open, so the last summary is written even when the lines stop. */
  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.sweep();
      if (this.open.size > 0) this.schedule();
    }, this.windowMs);
    this.timer.unref();
  }
}
