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
