/**
 * What the lab's history says about faults, nodes and the node guard, said once: the English `detail` /
 * `reason` (logs, run files, tests, pages from before) and its `words`, which a page writes in its own
 * language (messages/<locale>/history.json).
 */
import { say } from './checker/said';
import type { Said, WordValue } from './words';
import type { MessageKeys } from './message-keys';
import type history from '../messages/en/history.json';

/** A sentence of messages/<locale>/history.json, checked against the English at compile time. */
export type HistoryKey = MessageKeys<typeof history>;

export function historySaid(key: HistoryKey, values: Record<string, WordValue> = {}): Said {
  return say(`history.${key}`, values);
}

/** A figure of milliseconds as the history has always written it: the integer as is, no grouping, no rounding. */
export function ms(value: number): string {
  return String(value);
}
