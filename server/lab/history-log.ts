/**
 * A lab's history: append-only, gap-free sequence numbers, times on the lab's
 * monotonic clock. Listeners see each event once, in order.
 */
import type { HistoryEvent, HistoryInput } from '@/lib/history';

export class HistoryLog {
  private readonly events: HistoryEvent[] = [];
  private readonly listeners = new Set<(event: HistoryEvent) => void>();

  constructor(private readonly clock: () => number) {}

  append(input: HistoryInput): HistoryEvent {
    const event = { ...input, seq: this.events.length, t: input.t ?? this.clock() } as HistoryEvent;
    this.events.push(event);
    for (const listener of this.listeners) listener(event);
    return event;
  }

  get length(): number {
    return this.events.length;
  }

  /** Events with seq ≥ from (a reconnecting viewer asks for what it missed). */
  since(from = 0): HistoryEvent[] {
    return this.events.slice(Math.max(0, from));
  }

  subscribe(listener: (event: HistoryEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
