/**
 * A lab's history: gap-free sequence numbers, times on the lab's monotonic
 * clock, listeners see each event once, in order — and a budget. A lab keeps
 * at most `maxEvents` events and `maxBytes` bytes (estimated, lib/history-size)
 * of them; past that, the oldest events go first, which are the older runs'.
 * What remains is always one contiguous range of seqs [firstSeq, nextSeq).
 *
 * Each run has a share (`runEvents`, `runBytes`), smaller than the lab's
 * budget, so that the run going on never has to be evicted: `LabRuns` stops a
 * run that outgrows its share (`runUsage`). Each node's latest state event is
 * kept aside, evicted or not: the next run's checker starts from it.
 */
import type { HistoryEvent, HistoryInput, NodeStateEvent } from '@/lib/history';
import { eventBytes } from '@/lib/history-size';

export interface HistoryBudget {
  /** Events a lab keeps (all runs). */
  maxEvents: number;
  /** Estimated bytes a lab keeps (all runs). */
  maxBytes: number;
  /** Events one run may add before it is stopped. */
  runEvents: number;
  /** Estimated bytes one run may add before it is stopped. */
  runBytes: number;
}

/**
 * Defaults, sized for the shared server: 60+ labs in Node's default heap.
 * On a 64-bit machine with ≥ 16 GB, V8's default old-space limit is ~4 GB.
 * 16 MB (estimated) per lab is ~30 MB of real heap (the estimate counts
 * characters, V8 adds object headers and the checker's own state), so 60 labs
 * hold ≤ ~1.8 GB at their very worst — under half the heap, leaving the rest
 * for sockets, node monitors and catch-ups in flight. 100,000 events is five
 * times the 20,000 a browser tab keeps; no lesson run comes near a run's
 * share (the lesson tests run with these defaults and none is cut). A run's
 * share is half the lab's, so the previous run (for comparison) survives a run
 * that uses all of its own.
 */
export const DEFAULT_HISTORY_BUDGET: Readonly<HistoryBudget> = Object.freeze({
  maxEvents: 100_000,
  maxBytes: 16 * 1024 * 1024,
  runEvents: 50_000,
  runBytes: 8 * 1024 * 1024,
});

export interface RunUsage {
  events: number;
  bytes: number;
}

export class HistoryLog {
  /** Kept events, oldest first, from index `head` (a queue without O(n) shifts). */
  private events: HistoryEvent[] = [];
  private sizes: number[] = [];
  private head = 0;
  private nextSeq = 0;
  private totalBytes = 0;
  private readonly runs = new Map<string, RunUsage & { lastSeq: number }>();
  private readonly latestNode = new Map<number, NodeStateEvent>();
  private readonly listeners = new Set<(event: HistoryEvent) => void>();
  readonly budget: Readonly<HistoryBudget>;

  constructor(
    private readonly clock: () => number,
    budget: Partial<HistoryBudget> = {},
  ) {
    this.budget = { ...DEFAULT_HISTORY_BUDGET, ...budget };
  }

  append(input: HistoryInput): HistoryEvent {
    const event = { ...input, seq: this.nextSeq++, t: input.t ?? this.clock() } as HistoryEvent;
    const size = eventBytes(event);
    this.events.push(event);
    this.sizes.push(size);
    this.totalBytes += size;
    if (event.runId !== undefined) {
      const usage = this.runs.get(event.runId);
      if (usage) {
        usage.events += 1;
        usage.bytes += size;
        usage.lastSeq = event.seq;
      } else this.runs.set(event.runId, { events: 1, bytes: size, lastSeq: event.seq });
    }
    if (event.type === 'node') this.latestNode.set(event.node, event);
    this.evict();
    for (const listener of this.listeners) listener(event);
    return event;
  }

  /** Drops the oldest events until the lab is within its budget (the newest event always stays). */
  private evict(): void {
    const { maxEvents, maxBytes } = this.budget;
    while (this.length > 1 && (this.length > maxEvents || this.totalBytes > maxBytes)) {
      const event = this.events[this.head] as HistoryEvent;
      this.totalBytes -= this.sizes[this.head] as number;
      this.head += 1;
      if (event.runId !== undefined) {
        // A run's usage counts what it added, evicted or not, so a run cannot outlive its share by
        // having its own oldest events evicted; the entry goes with the run's newest event.
        if (this.runs.get(event.runId)?.lastSeq === event.seq) this.runs.delete(event.runId);
      }
    }
    // Compact once the dead prefix is half the array: amortised O(1) per event.
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }

  /** Events kept. */
  get length(): number {
    return this.events.length - this.head;
  }

  /** Seq of the oldest event kept (= nextSeq when empty): everything before it was dropped for the budget. */
  get firstSeq(): number {
    return this.nextSeq - this.length;
  }

  /** Estimated bytes kept (for the metrics gauge). */
  get bytes(): number {
    return this.totalBytes;
  }

  /** What a run has added to this history so far (evicted events included); zeros for an unknown run. */
  runUsage(runId: string): RunUsage {
    const usage = this.runs.get(runId);
    return usage ? { events: usage.events, bytes: usage.bytes } : { events: 0, bytes: 0 };
  }

  /** Each node's latest state event, evicted or not, in seq order: the world as the next run finds it. */
  latestNodeStates(): NodeStateEvent[] {
    return [...this.latestNode.values()].sort((a, b) => a.seq - b.seq);
  }

  /**
   * Events with seq ≥ from (a reconnecting viewer asks for what it missed).
   * Asking for evicted seqs gives what is kept, from `firstSeq`: the viewer
   * sees the gap in the seqs.
   */
  since(from = 0): HistoryEvent[] {
    const offset = Math.max(0, Math.floor(from) - this.firstSeq);
    return this.events.slice(this.head + offset);
  }

  subscribe(listener: (event: HistoryEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
