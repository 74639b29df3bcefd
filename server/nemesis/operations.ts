/**
 * The server's half of the fault catalogue (lib/faults): each operation's
 * implementation on a lab. Socket handlers, classroom commands and scenario
 * steps all go through `applyFault`, so a fault means the same thing however
 * it was asked for.
 */
import type { FaultOp, FaultReply } from '@/lib/faults/catalogue';
import type { FaultInput } from '@/lib/faults/inputs';
import type { Lab } from '../lab/lab';
import * as clientFaults from './client-faults';
import type { RunningClients } from './client-faults';
import * as nemesis from './nemesis';

/** Where a fault lands: the lab, and its running program if it has one (client faults need it). */
export interface FaultTarget {
  lab: Lab;
  clients: RunningClients | null;
}

type Operations = { [K in FaultOp]: (target: FaultTarget, input: FaultInput<K>) => Promise<FaultReply<K>> };

const OPERATIONS: Operations = {
  'node-kill': ({ lab }, input) => nemesis.killNode(lab, input),
  'node-restart': ({ lab }, input) => nemesis.restartNode(lab, input),
  'node-pause': ({ lab }, input) => nemesis.pauseNode(lab, input),
  'node-resume': ({ lab }, input) => nemesis.resumeNode(lab, input),
  'node-clock-jump': ({ lab }, input) => nemesis.jumpClock(lab, input),
  'link-cut': ({ lab }, input) => nemesis.cutLink(lab, input),
  'link-heal': ({ lab }, input) => nemesis.healLink(lab, input),
  'link-delay': ({ lab }, input) => nemesis.delayLink(lab, input),
  'replication-hold': ({ lab }) => nemesis.holdReplication(lab),
  'replication-release': ({ lab }) => nemesis.releaseReplication(lab),
  'replication-delay': ({ lab }, input) => nemesis.delayReplication(lab, input),
  failover: ({ lab }) => nemesis.failover(lab),
  'client-pause': ({ lab, clients }, input) => clientFaults.pauseClient(lab, clients, input),
  'client-resume': ({ lab, clients }, input) => clientFaults.resumeClient(lab, clients, input),
  'client-crash': ({ lab, clients }, input) => clientFaults.crashClient(lab, clients, input),
  'client-skew': ({ lab, clients }, input) => clientFaults.skewClient(lab, clients, input),
  'client-disconnect': ({ lab }, input) => nemesis.dropConnections(lab, input),
};

/** Carries out a fault; its input was parsed where it came in (a browser's command, a scenario step). Async so that every refusal is a rejection. */
export async function applyFault<K extends FaultOp>(op: K, target: FaultTarget, input: FaultInput<K>): Promise<FaultReply<K>> {
  return (OPERATIONS[op] as (target: FaultTarget, input: FaultInput<K>) => Promise<FaultReply<K>>)(target, input);
}
