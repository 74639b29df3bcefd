/**
 * The catalogue key of each fault operation: an op's name ('node-kill') cannot be an ICU select option or a
 * message key as it is, so the recent events and the timeline both name an op through this one table.
 */
import type { FaultOp } from './catalogue';
import { words, type WordValue, type Words } from '../words';

export const FAULT_MESSAGE_KEYS = {
  'node-kill': 'nodeKill',
  'node-restart': 'nodeRestart',
  'node-pause': 'nodePause',
  'node-resume': 'nodeResume',
  'node-clock-jump': 'nodeClockJump',
  'link-cut': 'linkCut',
  'link-heal': 'linkHeal',
  'link-delay': 'linkDelay',
  'replication-hold': 'replicationHold',
  'replication-release': 'replicationRelease',
  'replication-delay': 'replicationDelay',
  failover: 'failover',
  'client-pause': 'clientPause',
  'client-resume': 'clientResume',
  'client-crash': 'clientCrash',
  'client-skew': 'clientSkew',
  'client-disconnect': 'clientDisconnect',
} as const satisfies Record<FaultOp, string>;

/**
 * A fault's command as data, for a page's language: "Kill Node 3" is `refusals.command.nodeKill` with its node
 * (the pending state and the error list name the command; labelFault keeps the English for the pending key).
 */
export function faultCommandWords(op: FaultOp, input: { node?: number | undefined; client?: number | undefined }): Words {
  const values: Record<string, WordValue> = {};
  if (input.node !== undefined) values.node = { node: input.node };
  if (input.client !== undefined) values.client = { client: input.client };
  return words(`refusals.command.${FAULT_MESSAGE_KEYS[op]}`, values);
}
