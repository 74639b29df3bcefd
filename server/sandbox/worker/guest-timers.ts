/**
 * The guest's setTimeout / setInterval / setImmediate, kept by the host. The
 * guest only numbers its timers and holds their callbacks; each is due on the
 * client's (skewed) wall clock, and its firing is a delivery through the gate,
 * so a paused client's timers wait and a clock jump moves them.
 */

interface HostTimer {
  id: number;
  delayMs: number;
  repeat: boolean;
  /** Keeps the program alive, like a Node timer that was not unref()'d. */
  ref: boolean;
  /** On the client's (skewed) clock. */
  dueAt: number;
  handle: ReturnType<typeof setTimeout> | null;
}

export interface GuestTimersDeps {
  /** The client's wall clock (the worker's plus its skew). */
  now(): number;
  /** Passes the firing through the client's gate. */
  deliver(work: () => void): void;
  /** Runs the guest's callback for timer `id`. */
  fire(id: number): void;
}

export class GuestTimers {
  private readonly timers = new Map<number, HostTimer>();

  constructor(private readonly deps: GuestTimersDeps) {}

  set(id: number, delayMs: number, repeat: boolean): void {
    const t: HostTimer = { id, delayMs, repeat, ref: true, dueAt: this.deps.now() + delayMs, handle: null };
    this.timers.set(id, t);
    this.arm(t);
  }

  clear(id: number): void {
    const t = this.timers.get(id);
    if (t?.handle) clearTimeout(t.handle);
    this.timers.delete(id);
  }

  ref(id: number, ref: boolean): void {
    const t = this.timers.get(id);
    if (t) t.ref = ref;
  }

  refresh(id: number): void {
    const t = this.timers.get(id);
    if (t?.handle) {
      clearTimeout(t.handle);
      t.dueAt = this.deps.now() + t.delayMs;
      this.arm(t);
    }
  }

  /** The client's clock moved: timers are due on it, so a jump forward brings them closer (and back, further). */
  rearm(): void {
    for (const t of this.timers.values()) {
      if (t.handle) {
        clearTimeout(t.handle);
        this.arm(t);
      }
    }
  }

  /** A ref'd timer is still pending, so the program is not over (as in Node). */
  keepAlive(): boolean {
    for (const t of this.timers.values()) if (t.ref) return true;
    return false;
  }

  /** The client ended: no timer fires any more. */
  clearAll(): void {
    for (const t of this.timers.values()) if (t.handle) clearTimeout(t.handle);
    this.timers.clear();
  }

  private arm(t: HostTimer): void {
    const wait = Math.max(0, t.dueAt - this.deps.now());
    t.handle = setTimeout(() => {
      t.handle = null;
      this.deps.deliver(() => {
        // Cleared while the firing waited at a paused client's gate.
        if (this.timers.get(t.id) !== t) return;
        // Not yet due on the client's clock, which stood still while the firing waited (a client frozen at a
        // breakpoint) or was set back: it fires when that clock gets there.
        if (this.deps.now() < t.dueAt - 1) return this.arm(t);
        if (t.repeat) {
          t.dueAt = this.deps.now() + t.delayMs;
          this.arm(t);
        } else this.timers.delete(t.id);
        this.deps.fire(t.id);
      });
    }, wait);
  }
}
