/**
 * A refusal the server sends, said once: its English `message` (logs, tests, pages from before) and its
 * `words`, which the page writes in its own language (messages/<locale>/refusals.json).
 */
import { say } from './checker/said';
import { words, type Said, type WordValue, type Words } from './words';
import type { MessageKeys } from './message-keys';
import type refusals from '../messages/en/refusals.json';

/** A sentence of messages/<locale>/refusals.json, checked against the English at compile time. */
export type RefusalKey = MessageKeys<typeof refusals>;

export function refusal(key: RefusalKey, values: Record<string, WordValue> = {}): Said {
  return say(`refusals.${key}`, values);
}

/** A link as a phrase: "Client 2 → Node 3". */
export function linkWords(client: number, node: number): Words {
  return words('refusals.link.name', { client: { client }, node: { node } });
}
