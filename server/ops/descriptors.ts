/**
 * The web server keeps a reserve of file descriptors for its own sockets: a
 * new visitor's websocket, a page, the nodes' control connections. Learner
 * connections are sockets of this process too (sandbox workers are its
 * threads), and eight labs opening them in a loop once took all 20,000: other
 * learners' runs failed with EMFILE and a new visitor's websocket never opened.
 *
 * So this process's open descriptors are counted (/proc/self/fd) into memory
 * the sandbox workers share; a worker adds each connection it opens since the
 * last count, and refuses one, in words, that would leave less than the
 * reserve (worker/descriptor-room.ts). The connections opened between two
 * counts are counted by the workers themselves, so the reserve holds without
 * a count per connection.
 *
 * The count is one readdir, but of every descriptor: with 100 labs (a
 * thousand and more sockets and pipes) four a second cost the server's loop
 * ~15 ms a second. So every COUNT_MS the shared figures are looked at (no
 * system call), and the directory is read again only when they come within
 * FAR_BELOW of the ceiling (workers' connections since the last count
 * included), or SLOW_COUNT_MS after the last read: what nobody counts for us
 * (node starts, pages, websockets) cannot grow by a quarter of the limit in
 * two seconds. Near the ceiling, as under a learner's connection churn, the
 * count is as frequent as ever.
 */
import fs from 'node:fs';
import { openFileLimit } from '../cluster/link-host/lab-sockets';
import { DESCRIPTOR_SLOT } from '../sandbox/worker/descriptor-room';
const COUNT_MS = 250;
/** Far below the ceiling, the directory is read at least this often. */
const SLOW_COUNT_MS = 2_000;
/** "Far below": this many descriptors under the ceiling, or more. */
const farBelow = (ceiling: number): number => Math.max(256, Math.floor(ceiling / 4));
/** The default reserve: a tenth of the limit, at least 256 (websockets, pages, Next.js's files, node pipes). */
export function defaultDescriptorReserve(limit: number = openFileLimit()): number {
  return Math.max(256, Math.floor(limit / 10));
}

/** Descriptors this process has open now. */
export function openDescriptors(): number {
  return fs.readdirSync('/proc/self/fd').length;
}

class ServerDescriptors {
  readonly shared = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * 3);
  private readonly slots = new Int32Array(this.shared);
  private timer: NodeJS.Timeout | null = null;
  private users = 0;
  private countedAt = -Infinity;
  readonly limit = openFileLimit();

  constructor() {
    // Until a server says its reserve, nothing is refused.
    Atomics.store(this.slots, DESCRIPTOR_SLOT.ceiling, 0x7fffffff);
  }

  /** A server keeps `reserve` descriptors for itself from now on; the returned function ends that. */
  keep(reserve: number): () => void {
    Atomics.store(this.slots, DESCRIPTOR_SLOT.ceiling, Math.max(0, Math.min(0x7fffffff, this.limit - reserve)));
    this.users += 1;
    this.count();
    this.timer ??= setInterval(() => this.countIfNear(), COUNT_MS);
    this.timer.unref();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.users -= 1;
      if (this.users > 0 || !this.timer) return;
      clearInterval(this.timer);
      this.timer = null;
      Atomics.store(this.slots, DESCRIPTOR_SLOT.ceiling, 0x7fffffff);
    };
  }

  /** Counts again: connections opened while counting may be counted twice, which errs on the side of the reserve. */
  count(): void {
    this.countedAt = performance.now();
    const opened = Atomics.load(this.slots, DESCRIPTOR_SLOT.openedSince);
    Atomics.store(this.slots, DESCRIPTOR_SLOT.open, openDescriptors());
    Atomics.sub(this.slots, DESCRIPTOR_SLOT.openedSince, opened);
  }

  /** Counts when the figures come near the ceiling, or the last count is SLOW_COUNT_MS old. */
  private countIfNear(): void {
    const ceiling = Atomics.load(this.slots, DESCRIPTOR_SLOT.ceiling);
    const used = Atomics.load(this.slots, DESCRIPTOR_SLOT.open) + Atomics.load(this.slots, DESCRIPTOR_SLOT.openedSince);
    if (ceiling - used > farBelow(ceiling) && performance.now() - this.countedAt < SLOW_COUNT_MS) return;
    this.count();
  }

  /** Whether learner work may take no more descriptors (only the reserve is left). */
  get short(): boolean {
    return Atomics.load(this.slots, DESCRIPTOR_SLOT.open) + Atomics.load(this.slots, DESCRIPTOR_SLOT.openedSince) >= Atomics.load(this.slots, DESCRIPTOR_SLOT.ceiling);
  }
}

/** This process's descriptors (one per process: tests start several servers in one). */
export const serverDescriptors = new ServerDescriptors();
