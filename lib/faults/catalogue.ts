/**
 * The fault catalogue: every fault the lab can inject, declared once — its
 * operation name (as the history records it), its socket event, what its
 * acknowledgement carries, the words a learner reads, and whether it is a
 * recovery. Socket handlers, scenario steps, classroom commands, history
 * words, timeline markers and the browser's socket client all derive from
 * this table; each fault's input schema is beside it in `inputs.ts` (zod,
 * kept out of this file so the browser's pages do not ship zod), and its
 * operation on a lab is in server/nemesis/operations.ts.
 *
 * Adding a fault: one entry here, its schema in inputs.ts, its operation in
 * the server's table, and a test.
 */
import { clientLabel, nodeLabel, type LinkView, type NodeView, type ReplicationView } from '../cluster';
import type { FaultInput, FaultRequest } from './inputs';

interface FaultReplies {
  node: NodeView;
  nodes: NodeView[];
  link: LinkView;
  replication: ReplicationView;
  client: { client: number };
}
/** What a fault's acknowledgement carries: the thing it changed, as the browser shows it. */
export type FaultReplyKind = keyof FaultReplies;

interface FaultSpec<Input, Request> {
  /** The socket event a browser sends (`domain:verb`). */
  event: string;
  reply: FaultReplyKind;
  /** Undoes another fault (restart, resume, heal, release): drawn as a recovery, not a fault. */
  recovery: boolean;
  /** "Refused to <attempt> Node 2: …" */
  attempt: string;
  /** "Node 2 <did>": the fallback when the server's own words are missing. */
  did: string;
  /** Needs a running program (client faults). */
  needsProgram?: true;
  /** Needs the replicated topology (Node 1 master, Node 2 replica). */
  needsReplica?: true;
  /** The step in words, for a scenario's history line and the pages: "kill Node 3". */
  describe(input: Input): string;
  /** The command in words, for a button's pending state and its error: "Kill Node 3". */
  label(input: Request): string;
}

const link = (i: { client: number; node: number }) => `${clientLabel(i.client)} → ${nodeLabel(i.node)}`;

/** Declared with `satisfies` so each entry's functions see its own input type, and the keys stay literal. */
export const FAULTS = {
  'node-kill': {
    event: 'node:kill', reply: 'node', recovery: false, attempt: 'kill', did: 'killed',
    describe: (i: FaultInput<'node-kill'>) => `kill ${nodeLabel(i.node)}`,
    label: (i: FaultRequest<'node-kill'>) => `Kill ${nodeLabel(i.node)}`,
  },
  'node-restart': {
    event: 'node:restart', reply: 'node', recovery: true, attempt: 'restart', did: 'restarted',
    describe: (i: FaultInput<'node-restart'>) =>
      `restart ${nodeLabel(i.node)}${i.delayMs ? ` after ${i.delayMs} ms` : ''}${i.persistence ? ` (${i.persistence})` : ''}`,
    label: (i: FaultRequest<'node-restart'>) => `Restart ${nodeLabel(i.node)}`,
  },
  'node-pause': {
    event: 'node:pause', reply: 'node', recovery: false, attempt: 'pause', did: 'paused',
    describe: (i: FaultInput<'node-pause'>) => `pause ${nodeLabel(i.node)}`,
    label: (i: FaultRequest<'node-pause'>) => `Pause ${nodeLabel(i.node)}`,
  },
  'node-resume': {
    event: 'node:resume', reply: 'node', recovery: true, attempt: 'resume', did: 'resumed',
    describe: (i: FaultInput<'node-resume'>) => `resume ${nodeLabel(i.node)}`,
    label: (i: FaultRequest<'node-resume'>) => `Resume ${nodeLabel(i.node)}`,
  },
  'node-clock-jump': {
    event: 'node:clock-jump', reply: 'node', recovery: false, attempt: 'jump the clock of', did: 'clock jumped forward',
    describe: (i: FaultInput<'node-clock-jump'>) => `jump ${nodeLabel(i.node)}'s clock ${i.jumpMs} ms forward`,
    label: (i: FaultRequest<'node-clock-jump'>) => `Jump clock of ${nodeLabel(i.node)}`,
  },
  'link-cut': {
    event: 'link:cut', reply: 'link', recovery: false, attempt: 'cut', did: 'link cut',
    describe: (i: FaultInput<'link-cut'>) => `cut ${link(i)} (${i.mode})`,
    label: (i: FaultRequest<'link-cut'>) => `Cut ${link(i)}`,
  },
  'link-heal': {
    event: 'link:heal', reply: 'link', recovery: true, attempt: 'heal', did: 'link healed',
    describe: (i: FaultInput<'link-heal'>) => `heal ${link(i)}`,
    label: (i: FaultRequest<'link-heal'>) => `Heal ${link(i)}`,
  },
  'link-delay': {
    event: 'link:delay', reply: 'link', recovery: false, attempt: 'delay', did: 'link delayed',
    describe: (i: FaultInput<'link-delay'>) => `delay ${link(i)} by ${i.delayMs} ms${i.jitterMs ? ` (+ up to ${i.jitterMs} ms)` : ''}`,
    label: (i: FaultRequest<'link-delay'>) => `Delay ${link(i)}`,
  },
  'replication-hold': {
    event: 'replication:hold', reply: 'replication', recovery: false, attempt: 'hold back', did: 'replication held back', needsReplica: true,
    describe: () => 'hold replication back',
    label: () => 'Hold replication',
  },
  'replication-release': {
    event: 'replication:release', reply: 'replication', recovery: true, attempt: 'release', did: 'replication released', needsReplica: true,
    describe: () => 'release replication',
    label: () => 'Release replication',
  },
  'replication-delay': {
    event: 'replication:delay', reply: 'replication', recovery: false, attempt: 'delay', did: 'replication delayed', needsReplica: true,
    describe: (i: FaultInput<'replication-delay'>) => `delay replication by ${i.delayMs} ms`,
    label: () => 'Delay replication',
  },
  failover: {
    event: 'cluster:failover', reply: 'nodes', recovery: false, attempt: 'fail over', did: 'failed over', needsReplica: true,
    describe: () => 'fail over Node 1 → Node 2',
    label: () => 'Fail over',
  },
  'client-pause': {
    event: 'client:pause', reply: 'client', recovery: false, attempt: 'pause', did: 'paused', needsProgram: true,
    describe: (i: FaultInput<'client-pause'>) => `pause ${clientLabel(i.client)}${i.durationMs ? ` for ${i.durationMs} ms` : ''}`,
    label: (i: FaultRequest<'client-pause'>) => `Pause ${clientLabel(i.client)}`,
  },
  'client-resume': {
    event: 'client:resume', reply: 'client', recovery: true, attempt: 'resume', did: 'resumed', needsProgram: true,
    describe: (i: FaultInput<'client-resume'>) => `resume ${clientLabel(i.client)}`,
    label: (i: FaultRequest<'client-resume'>) => `Resume ${clientLabel(i.client)}`,
  },
  'client-crash': {
    event: 'client:crash', reply: 'client', recovery: false, attempt: 'crash', did: 'crashed', needsProgram: true,
    describe: (i: FaultInput<'client-crash'>) => `crash ${clientLabel(i.client)}`,
    label: (i: FaultRequest<'client-crash'>) => `Crash ${clientLabel(i.client)}`,
  },
  'client-skew': {
    event: 'client:skew', reply: 'client', recovery: false, attempt: 'skew the clock of', did: 'clock skewed', needsProgram: true,
    describe: (i: FaultInput<'client-skew'>) => `skew ${clientLabel(i.client)}'s clock by ${i.offsetMs} ms`,
    label: (i: FaultRequest<'client-skew'>) => `Skew ${clientLabel(i.client)}`,
  },
  'client-disconnect': {
    event: 'client:disconnect', reply: 'client', recovery: false, attempt: 'drop the connections of', did: 'connections dropped',
    describe: (i: FaultInput<'client-disconnect'>) => `drop ${clientLabel(i.client)}'s connections to every node`,
    label: (i: FaultRequest<'client-disconnect'>) => `Drop connections of ${clientLabel(i.client)}`,
  },
} as const satisfies { [K in FaultOp]: FaultSpec<FaultInput<K>, FaultRequest<K>> };

/**
 * The operations, in the order the pages list them. Declared as a tuple (not
 * `keyof typeof FAULTS`) so the history's and the schemas' unions have one
 * source that TypeScript can check both tables against.
 */
export const FAULT_OPS = [
  'node-kill',
  'node-restart',
  'node-pause',
  'node-resume',
  'node-clock-jump',
  'link-cut',
  'link-heal',
  'link-delay',
  'replication-hold',
  'replication-release',
  'replication-delay',
  'failover',
  'client-pause',
  'client-resume',
  'client-crash',
  'client-skew',
  'client-disconnect',
] as const;
export type FaultOp = (typeof FAULT_OPS)[number];

export type FaultEventName = (typeof FAULTS)[FaultOp]['event'];
export type FaultReply<K extends FaultOp> = FaultReplies[(typeof FAULTS)[K]['reply']];
/** The operation a socket event names. */
export type FaultOfEvent<E extends FaultEventName> = { [K in FaultOp]: (typeof FAULTS)[K]['event'] extends E ? K : never }[FaultOp];

export const FAULT_EVENTS: readonly FaultEventName[] = FAULT_OPS.map((op) => FAULTS[op].event);

const byEvent = new Map<string, FaultOp>(FAULT_OPS.map((op) => [FAULTS[op].event, op]));
/** The operation of a socket event, or undefined if the event is not a fault. */
export const faultOfEvent = (event: string): FaultOp | undefined => byEvent.get(event);

export const isRecovery = (op: FaultOp): boolean => FAULTS[op].recovery;
/** Client faults act on the running program: without one they are refused. */
export const needsProgram = (op: FaultOp): boolean => 'needsProgram' in FAULTS[op];
/** Replication faults and failover need the replicated topology. */
export const needsReplica = (op: FaultOp): boolean => 'needsReplica' in FAULTS[op];

/** A fault's step in words ("kill Node 3"), for any operation and its input. */
export function describeFault<K extends FaultOp>(op: K, input: FaultInput<K>): string {
  return (FAULTS[op].describe as (i: FaultInput<K>) => string)(input);
}

/** A fault's command in words ("Kill Node 3"). */
export function labelFault<K extends FaultOp>(op: K, input: FaultRequest<K>): string {
  return (FAULTS[op].label as (i: FaultRequest<K>) => string)(input);
}
