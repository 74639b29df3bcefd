/**
 * A fault's command as data, for a page's language: "Kill Node 3" is `refusals.command.<key>` with its node or
 * client (the catalogue's `key`). The pending state and the error list name the command by it.
 */
import { faultKey, type FaultOp } from './catalogue';
import { words, type WordValue, type Words } from '../words';

export interface FaultTarget {
  node?: number | undefined;
  client?: number | undefined;
}

export function faultCommandWords(op: FaultOp, input: FaultTarget): Words {
  const values: Record<string, WordValue> = {};
  if (input.node !== undefined) values.node = { node: input.node };
  if (input.client !== undefined) values.client = { client: input.client };
  return words(`refusals.command.${faultKey(op)}`, values);
}

/**
 * The key a fault's command is pending under in the store, by data (its op and target), never by its words: the
 * button that sent it and the keyboard shortcut find it by the same op and target.
 */
export function faultPendingKey(op: FaultOp, input: FaultTarget): string {
  return `fault:${op}:${input.node ?? ''}:${input.client ?? ''}`;
}
