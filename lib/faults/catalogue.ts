/**
 * The fault catalogue: every fault the lab can inject, declared once — its
 * operation name (as the history records it), its socket event, what its
 * acknowledgement carries, its key in the message catalogues, whether it is a
 * recovery, what undoes it, how long it lasts, how big it is, the state it
 * leaves a node in. Socket handlers, scenario steps, schedules and their
 * shrinking, classroom commands, history words, timeline markers, measurements
 * and the browser's socket client all read this table instead of switching on
 * an op; each fault's input schema is beside it in `inputs.ts` (zod, kept out
 * of this file so the browser's pages do not ship zod), and its operation on a
 * lab is in server/nemesis/operations.ts.
 *
 * Adding a fault: one entry here (every field is required, so a forgotten one
 * does not compile), its schema in inputs.ts, its operation in the server's
 * table, its words under its `key` in messages/{en,ar,nb}, and a test.
 */
import type { LinkView, NodeState, NodeView, ReplicationView } from '../cluster';
import type { WordValue } from '../words';
import { towards } from '../schedules/towards';
import type { FaultInput } from './inputs';

interface FaultReplies {
  node: NodeView;
  nodes: NodeView[];
  link: LinkView;
  replication: ReplicationView;
  client: { client: number };
}
/** What a fault's acknowledgement carries: the thing it changed, as the browser shows it. */
export type FaultReplyKind = keyof FaultReplies;

/** What a fault lasts or moves by beyond its recovery (the shrinker's magnitude), and the smaller values it tries. */
interface Magnitude<Input> {
  of(input: Input): number;
  smaller(input: Input): Partial<Input>[];
}

/**
 * Everything the product knows about a fault. Every field is required (null where it does not apply), so a new
 * entry that forgets one does not compile.
 */
export interface FaultSpec<Input> {
  /** The socket event a browser sends (`domain:verb`). */
  event: string;
  reply: FaultReplyKind;
  /**
   * Its key in every message catalogue that names a fault: `runNotes.step.<key>` (the step), `refusals.command.<key>`
   * (the button's command), `lab.op.<key>` (the recent history), `timeline.shape.op.<key>`.
   */
  key: string;
  /** Undoes another fault (restart, resume, heal, release): drawn as a recovery, not a fault. */
  recovery: boolean;
  /** In effect until a recovery undoes it (a band on the timeline), rather than done at once (a line). */
  lasting: boolean;
  /** The state a node operation leaves its node in (a node's change it explains); null for any other fault. */
  nodeState: NodeState | null;
  /** For a fault step, the pairing key of the step that undoes it; undefined when nothing does (a crash, a skew). */
  undoneBy: ((input: Input) => string | undefined) | null;
  /** For a recovery step, the same key as the fault it undoes; undefined when this step is no recovery. */
  undoes: ((input: Input) => string | undefined) | null;
  magnitude: Magnitude<Input> | null;
  /** The history argument (ms) by which the operation moves its node's clock forward; null: it does not. */
  clockArg: string | null;
  /** How the recent history tells it from its history argument (ms) when the server sent no sentence. */
  told: { arg: string; as: 'didBy' | 'didFor' | 'willRestart' } | null;
  /** What its step's phrase (`runNotes.step.<key>`) says beyond its node and client. */
  values: ((input: Input) => Record<string, WordValue>) | null;
  /** Needs a running program (client faults). */
  needsProgram?: true;
  /** Needs the replicated topology (Node 1 master, Node 2 replica). */
  needsReplica?: true;
}

/** A figure as the scenario's file writes it (no grouping, no decimal change): a string, not an ICU number. */
const figure = (n: number | undefined): string => String(n ?? 0);
const yes = (b: unknown): 'yes' | 'no' => (b ? 'yes' : 'no');
const nodeKey = (prefix: string) => (i: { node: number }) => `${prefix}:${i.node}`;
const clientKey = (prefix: string) => (i: { client: number }) => `${prefix}:${i.client}`;
const linkKey = (prefix: string) => (i: { client: number; node: number }) => `${prefix}:${i.client}:${i.node}`;
/** The behaviours most faults lack; what every fault must say (recovery, lasting, node state) each entry says itself. */
const none = { undoneBy: null, undoes: null, magnitude: null, clockArg: null, told: null, values: null } as const;

/** Declared with `satisfies` so each entry's functions see its own input type, and the keys stay literal. */
export const FAULTS = {
  'node-kill': {
    ...none, event: 'node:kill', reply: 'node', key: 'nodeKill', recovery: false, lasting: true, nodeState: 'down',
    undoneBy: nodeKey('restart'),
  },
  'node-restart': {
    ...none, event: 'node:restart', reply: 'node', key: 'nodeRestart', recovery: true, lasting: false, nodeState: 'up',
    undoes: nodeKey('restart'),
    told: { arg: 'delayMs', as: 'willRestart' },
    values: (i: FaultInput<'node-restart'>) => ({ hasDelay: yes(i.delayMs), delay: figure(i.delayMs), hasPersistence: yes(i.persistence), persistence: i.persistence ?? '' }),
  },
  'node-pause': {
    ...none, event: 'node:pause', reply: 'node', key: 'nodePause', recovery: false, lasting: true, nodeState: 'paused',
    undoneBy: nodeKey('resume-node'),
  },
  'node-resume': {
    ...none, event: 'node:resume', reply: 'node', key: 'nodeResume', recovery: true, lasting: false, nodeState: 'up',
    undoes: nodeKey('resume-node'),
  },
  'node-clock-jump': {
    ...none, event: 'node:clock-jump', reply: 'node', key: 'nodeClockJump', recovery: false, lasting: false, nodeState: null,
    magnitude: { of: (i: FaultInput<'node-clock-jump'>) => i.jumpMs, smaller: (i: FaultInput<'node-clock-jump'>) => towards(i.jumpMs, 1).map((jumpMs) => ({ jumpMs })) },
    clockArg: 'jumpMs',
    told: { arg: 'jumpMs', as: 'didBy' },
    values: (i: FaultInput<'node-clock-jump'>) => ({ jump: figure(i.jumpMs) }),
  },
  'link-cut': {
    ...none, event: 'link:cut', reply: 'link', key: 'linkCut', recovery: false, lasting: true, nodeState: null,
    undoneBy: linkKey('heal'),
    values: (i: FaultInput<'link-cut'>) => ({ mode: i.mode }),
  },
  'link-heal': {
    ...none, event: 'link:heal', reply: 'link', key: 'linkHeal', recovery: true, lasting: false, nodeState: null,
    undoes: linkKey('heal'),
  },
  'link-delay': {
    // A delay of 0 is how a delay is lifted (link-heal refuses a link that is not cut): that step is a recovery.
    ...none, event: 'link:delay', reply: 'link', key: 'linkDelay', recovery: false, lasting: true, nodeState: null,
    undoneBy: linkKey('undelay'),
    undoes: (i: FaultInput<'link-delay'>) => (i.delayMs === 0 && i.jitterMs === 0 ? linkKey('undelay')(i) : undefined),
    // Never to 0: a delay of 0 is a recovery, not a shorter delay.
    magnitude: { of: (i: FaultInput<'link-delay'>) => i.delayMs + i.jitterMs, smaller: (i: FaultInput<'link-delay'>) => towards(i.delayMs, 1).map((delayMs) => ({ delayMs })) },
    told: { arg: 'delayMs', as: 'didBy' },
    values: (i: FaultInput<'link-delay'>) => ({ delay: figure(i.delayMs), hasJitter: yes(i.jitterMs), jitter: figure(i.jitterMs) }),
  },
  'replication-hold': {
    ...none, event: 'replication:hold', reply: 'replication', key: 'replicationHold', recovery: false, lasting: true, nodeState: null, needsReplica: true,
    undoneBy: () => 'release',
  },
  'replication-release': {
    ...none, event: 'replication:release', reply: 'replication', key: 'replicationRelease', recovery: true, lasting: false, nodeState: null, needsReplica: true,
    undoes: () => 'release',
  },
  'replication-delay': {
    ...none, event: 'replication:delay', reply: 'replication', key: 'replicationDelay', recovery: false, lasting: true, nodeState: null, needsReplica: true,
    undoneBy: () => 'undelay-replication',
    undoes: (i: FaultInput<'replication-delay'>) => (i.delayMs === 0 ? 'undelay-replication' : undefined),
    magnitude: { of: (i: FaultInput<'replication-delay'>) => i.delayMs, smaller: (i: FaultInput<'replication-delay'>) => towards(i.delayMs, 1).map((delayMs) => ({ delayMs })) },
    told: { arg: 'delayMs', as: 'didBy' },
    values: (i: FaultInput<'replication-delay'>) => ({ delay: figure(i.delayMs) }),
  },
  failover: {
    ...none, event: 'cluster:failover', reply: 'nodes', key: 'failover', recovery: false, lasting: false, nodeState: null, needsReplica: true,
    values: () => ({ from: { node: 1 }, to: { node: 2 } }),
  },
  'client-pause': {
    // A pause with a duration ends by itself; without one, its client's resume undoes it.
    ...none, event: 'client:pause', reply: 'client', key: 'clientPause', recovery: false, lasting: true, nodeState: null, needsProgram: true,
    undoneBy: (i: FaultInput<'client-pause'>) => (i.durationMs === undefined ? clientKey('resume-client')(i) : undefined),
    magnitude: {
      of: (i: FaultInput<'client-pause'>) => i.durationMs ?? 0,
      smaller: (i: FaultInput<'client-pause'>) => (i.durationMs === undefined ? [] : towards(i.durationMs, 1).map((durationMs) => ({ durationMs }))),
    },
    told: { arg: 'durationMs', as: 'didFor' },
    values: (i: FaultInput<'client-pause'>) => ({ hasDuration: yes(i.durationMs), duration: figure(i.durationMs) }),
  },
  'client-resume': {
    ...none, event: 'client:resume', reply: 'client', key: 'clientResume', recovery: true, lasting: false, nodeState: null, needsProgram: true,
    undoes: clientKey('resume-client'),
  },
  'client-crash': {
    ...none, event: 'client:crash', reply: 'client', key: 'clientCrash', recovery: false, lasting: false, nodeState: null, needsProgram: true,
  },
  'client-skew': {
    ...none, event: 'client:skew', reply: 'client', key: 'clientSkew', recovery: false, lasting: false, nodeState: null, needsProgram: true,
    magnitude: {
      of: (i: FaultInput<'client-skew'>) => Math.abs(i.offsetMs),
      smaller: (i: FaultInput<'client-skew'>) => towards(Math.abs(i.offsetMs), 1).map((size) => ({ offsetMs: Math.sign(i.offsetMs) * size })),
    },
    values: (i: FaultInput<'client-skew'>) => ({ offset: figure(i.offsetMs) }),
  },
  'client-disconnect': {
    ...none, event: 'client:disconnect', reply: 'client', key: 'clientDisconnect', recovery: false, lasting: false, nodeState: null,
  },
} as const satisfies { [K in FaultOp]: FaultSpec<FaultInput<K>> };

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

/** A fault with its input, as a scenario step carries it. */
export type FaultStep = { [K in FaultOp]: FaultInput<K> & { action: K } }[FaultOp];
type AnyInput = Record<string, unknown>;

/**
 * An entry seen through one input type: TypeScript cannot correlate an op with its own input across the union, so
 * the one widening cast of this module lives here (each entry's functions were checked against their input above).
 */
const specOf = (op: FaultOp): FaultSpec<AnyInput> => FAULTS[op] as unknown as FaultSpec<AnyInput>;

/** Its key in the message catalogues (runNotes.step, refusals.command, lab.op, timeline.shape.op). */
export const faultKey = <K extends FaultOp>(op: K): (typeof FAULTS)[K]['key'] => FAULTS[op].key;
export type FaultKey = (typeof FAULTS)[FaultOp]['key'];
/** Lasts until undone (a band on the timeline) rather than acting at once. */
export const isLasting = (op: FaultOp): boolean => FAULTS[op].lasting;
/** The state a node operation leaves its node in; null for other faults. */
export const nodeStateAfter = (op: FaultOp): NodeState | null => FAULTS[op].nodeState;
/** How the recent history tells the operation from its argument when the server sent no sentence. */
export const toldBy = (op: FaultOp): FaultSpec<AnyInput>['told'] => FAULTS[op].told;

/** A step that undoes another (a restart, a heal, a delay of 0 that lifts one). */
export function isRecoveryStep(step: FaultStep): boolean {
  return FAULTS[step.action].recovery || specOf(step.action).undoes?.(step as unknown as AnyInput) !== undefined;
}
/** A fault step's pairing key: the recovery with the same `undoesKey` undoes it. */
export const undoneByKey = (step: FaultStep): string | undefined => specOf(step.action).undoneBy?.(step as unknown as AnyInput);
export const undoesKey = (step: FaultStep): string | undefined => specOf(step.action).undoes?.(step as unknown as AnyInput);

/** What a fault step lasts or moves by beyond its recovery, in ms (0: nothing). */
export const magnitudeOf = (step: FaultStep): number => specOf(step.action).magnitude?.of(step as unknown as AnyInput) ?? 0;
/** The step with each smaller magnitude its fault allows, nearest to the smallest first. */
export function smallerMagnitudes<S extends FaultStep>(step: S): S[] {
  return (specOf(step.action).magnitude?.smaller(step as unknown as AnyInput) ?? []).map((change) => ({ ...step, ...change }));
}

/** The values of a fault's step phrase beyond its node and client. */
export const faultValues = (step: FaultStep): Record<string, WordValue> => specOf(step.action).values?.(step as unknown as AnyInput) ?? {};

/** How far a history operation moved its node's clock forward, in ms (0: it did not). */
export function clockJumpOf(op: FaultOp, args: Readonly<Record<string, unknown>>): number {
  const arg = FAULTS[op].clockArg;
  const value = arg === null ? undefined : args[arg];
  return typeof value === 'number' ? value : 0;
}
