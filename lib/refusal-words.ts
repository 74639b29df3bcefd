/**
 * A refusal the server sends, said once: its English `message` (logs, tests, pages from before) and its
 * `words`, which the page writes in its own language (messages/<locale>/refusals.json).
 */
import { say } from './checker/said';
import { words, type Said, type WordValue, type Words } from './words';

export function refusal(key: string, values: Record<string, WordValue> = {}): Said {
  return say(`refusals.${key}`, values);
}

/** A link as a phrase: "Client 2 → Node 3". */
export function linkWords(client: number, node: number): Words {
  return words('refusals.link.name', { client: { client }, node: { node } });
}
