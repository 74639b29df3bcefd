/**
 * What one history event costs to keep, in bytes, estimated without
 * serialising it: the server's per-lab budget and the browser's both count
 * with this, so "16 MB of history" means the same thing on either side.
 *
 * The estimate is the event's JSON size (characters of its strings, digits of
 * its numbers, punctuation) plus a fixed cost per event for the object that
 * holds it. It is not an exact heap size — V8 shares strings and packs small
 * integers — but it grows with exactly what a learner controls (the length and
 * number of strings), which is what a budget has to bound.
 */
import type { HistoryEvent, HistoryInput } from './history';

/** Per event: the object, its hidden class and the array slot that holds it (measured ~100–200 B in V8). */
export const EVENT_OVERHEAD_BYTES = 128;

/** Estimated bytes of one JSON-like value. */
export function valueBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return 8;
    case 'boolean':
      return 5;
    case 'undefined':
      return 0;
    case 'object': {
      if (value === null) return 4;
      if (Array.isArray(value)) {
        let n = 2;
        for (const item of value) n += valueBytes(item) + 1;
        return n;
      }
      let n = 2;
      for (const [key, item] of Object.entries(value)) n += key.length + 4 + valueBytes(item);
      return n;
    }
    default:
      return 8;
  }
}

/** Estimated bytes an event holds while kept in a history. */
export function eventBytes(event: HistoryEvent | HistoryInput): number {
  return EVENT_OVERHEAD_BYTES + valueBytes(event);
}

/**
 * What a browser tab keeps of a lab's history: the timeline has to stay smooth at 10,000 events, so a
 * little more than that, and never more bytes than a lab keeps on the server (DEFAULT_HISTORY_BUDGET).
 * A joining tab is sent no more than this (lab-publisher's catch-up).
 */
export const TAB_HISTORY_EVENTS = 20_000;
export const TAB_HISTORY_BYTES = 16 * 1024 * 1024;

/** The newest events of `history` (in order) that fit in both caps: the oldest go first. */
export function newestWithin<E extends HistoryEvent>(history: readonly E[], maxEvents = TAB_HISTORY_EVENTS, maxBytes = TAB_HISTORY_BYTES): readonly E[] {
  let start = history.length;
  let bytes = 0;
  const floor = Math.max(0, history.length - maxEvents);
  while (start > floor) {
    const size = eventBytes(history[start - 1] as E);
    // The newest event is always sent, whatever its size, as the server's log always keeps it.
    if (bytes + size > maxBytes && start < history.length) break;
    bytes += size;
    start -= 1;
  }
  return start === 0 ? history : history.slice(start);
}
