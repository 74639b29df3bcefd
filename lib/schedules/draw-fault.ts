/**
 * One fault of a space, drawn: its steps (the fault, then the recovery that
 * undoes it) and what it occupies while in effect, so the plan (plan.ts) can
 * refuse a fault the nemesis would refuse anyway ("Node 3 is already down").
 */
import { LINK_CUT_MODES } from '../cluster';
import type { Random } from '../random';
import type { ScenarioStep, Trigger } from '../scenario';
import { drawChance, drawInt, drawOne, drawSome } from './draw';
import type { FaultKind, Range } from './space';
import { labWideStep } from './steps';

/** When a fault starts: ms after the run starts, or after its trigger. */
export interface Timing {
  at: number;
  when?: Trigger;
}

/**
 * Something a fault holds from `from` to `to` (ms on its timing's clock; `to` = Infinity for a crash or a
 * failover, which nothing undoes). Two faults may not hold one target at once.
 */
export interface Occupation {
  target: string;
  from: number;
  to: number;
}

export interface DrawnFault {
  kind: FaultKind['kind'];
  timing: Timing;
  /** The fault's own steps first, then its recoveries. */
  steps: ScenarioStep[];
  occupations: Occupation[];
  /** How long a killed node stays down (kills and failover), for the space's maxDown. */
  down?: { from: number; to: number };
  /** A link-cut or partition: the client whose cuts share this timing (shrink.ts reads cuts with one timing as one fault). */
  cutsOf?: number;
}

export interface DrawContext {
  random: Random;
  clients: number;
  nodes: number;
  timing: Timing;
}

/** A step's timing `offset` ms after the fault's: a triggered fault's recovery waits for the same trigger. */
const timed = (timing: Timing, offset: number): Timing => ({ at: timing.at + offset, ...(timing.when ? { when: timing.when } : {}) });

const drawIn = (random: Random, r: Range): number => drawInt(random, r.min, r.max);

const nodeTarget = (node: number) => `node:${node}`;
const linkTarget = (client: number, node: number) => `link:${client}:${node}`;
const clientTarget = (client: number) => `client:${client}`;

/**
 * The client a client fault hits. With a trigger, half of the time the trigger's own client: "pause Client 1
 * when Client 1 is granted the lock" is the interleaving a lock must survive.
 */
function drawClient(ctx: DrawContext): number {
  const own = ctx.timing.when?.client;
  if (own !== undefined && drawChance(ctx.random, 0.5)) return own;
  return drawInt(ctx.random, 1, ctx.clients);
}

export function drawFault(kind: FaultKind, ctx: DrawContext): DrawnFault {
  const { random, timing } = ctx;
  const at = timing.at;
  switch (kind.kind) {
    case 'client-pause': {
      const client = drawClient(ctx);
      const durationMs = drawInt(random, kind.minMs, kind.maxMs);
      return {
        kind: kind.kind,
        timing,
        // The pause resumes by itself: one step, its duration its own.
        steps: [{ action: 'client-pause', client, durationMs, ...timed(timing, 0) }],
        occupations: [{ target: clientTarget(client), from: at, to: at + durationMs }],
      };
    }
    case 'client-crash': {
      const client = drawClient(ctx);
      return {
        kind: kind.kind,
        timing,
        steps: [{ action: 'client-crash', client, ...timed(timing, 0) }],
        // A crashed client is gone: any later fault on it would be refused ("has already ended").
        occupations: [{ target: clientTarget(client), from: at, to: Infinity }],
      };
    }
    case 'client-skew': {
      const client = drawClient(ctx);
      let offsetMs = drawInt(random, -kind.maxOffsetMs, kind.maxOffsetMs);
      if (offsetMs === 0) offsetMs = kind.maxOffsetMs; // a skew of 0 would be a fault that does nothing
      return {
        kind: kind.kind,
        timing,
        steps: [{ action: 'client-skew', client, offsetMs, ...timed(timing, 0) }],
        occupations: [{ target: clientTarget(client), from: at, to: at }],
      };
    }
    case 'node-kill': {
      const node = drawInt(random, 1, ctx.nodes);
      const downMs = drawIn(random, kind.downMs);
      return {
        kind: kind.kind,
        timing,
        steps: [
          { action: 'node-kill', node, ...timed(timing, 0) },
          { action: 'node-restart', node, ...timed(timing, downMs) },
        ],
        occupations: [{ target: nodeTarget(node), from: at, to: at + downMs }],
        down: { from: at, to: at + downMs },
      };
    }
    case 'node-pause': {
      const node = drawInt(random, 1, ctx.nodes);
      const pausedMs = drawInt(random, kind.minMs, kind.maxMs);
      return {
        kind: kind.kind,
        timing,
        steps: [
          { action: 'node-pause', node, ...timed(timing, 0) },
          { action: 'node-resume', node, ...timed(timing, pausedMs) },
        ],
        occupations: [{ target: nodeTarget(node), from: at, to: at + pausedMs }],
      };
    }
    case 'link-cut': {
      const client = drawClient(ctx);
      const node = drawInt(random, 1, ctx.nodes);
      const mode = drawOne(random, LINK_CUT_MODES);
      const healMs = drawIn(random, kind.healAfterMs);
      return {
        kind: kind.kind,
        timing,
        steps: [
          { action: 'link-cut', client, node, mode, ...timed(timing, 0) },
          { action: 'link-heal', client, node, ...timed(timing, healMs) },
        ],
        occupations: [{ target: linkTarget(client, node), from: at, to: at + healMs }],
        cutsOf: client,
      };
    }
    case 'partition':
      return drawPartition(kind.healAfterMs, ctx);
    case 'link-delay': {
      const client = drawClient(ctx);
      const node = drawInt(random, 1, ctx.nodes);
      const delayMs = drawInt(random, 1, kind.maxDelayMs);
      const healMs = drawIn(random, kind.healAfterMs);
      return {
        kind: kind.kind,
        timing,
        steps: [
          { action: 'link-delay', client, node, delayMs, jitterMs: 0, ...timed(timing, 0) },
          // link-heal heals a cut and refuses a link that is only delayed: a delay is lifted by a delay of 0.
          { action: 'link-delay', client, node, delayMs: 0, jitterMs: 0, ...timed(timing, healMs) },
        ],
        occupations: [{ target: linkTarget(client, node), from: at, to: at + healMs }],
      };
    }
    case 'replication-hold': {
      const releaseMs = drawIn(random, kind.releaseAfterMs);
      return {
        kind: kind.kind,
        timing,
        steps: [
          labWideStep('replication-hold', timed(timing, 0)),
          labWideStep('replication-release', timed(timing, releaseMs)),
        ],
        occupations: [
          { target: 'replication', from: at, to: at + releaseMs },
          // Only its start must come before a failover (a hold after one is refused: replication has ended).
          { target: 'replication-ended', from: at, to: at },
        ],
      };
    }
    case 'failover':
      return {
        kind: kind.kind,
        timing,
        steps: [labWideStep('failover', timed(timing, 0))],
        // Node 1 dies for good and Node 2 becomes a master: nothing else may kill or pause them after. A hold
        // still in effect is allowed on purpose (a failover while replication is held back loses a write); its
        // release is then refused by the lab, and the history says so.
        occupations: [nodeTarget(1), nodeTarget(2), 'replication-ended'].map((target) => ({ target, from: at, to: Infinity })),
        down: { from: at, to: Infinity },
      };
  }
}

/**
 * The clients split: one client loses a minority or a majority of the nodes (every link of that client to
 * them cut, in one mode), and the links heal together. A minority cut leaves it a quorum; a majority cut does not.
 */
function drawPartition(healAfterMs: Range, ctx: DrawContext): DrawnFault {
  const { random, timing, nodes } = ctx;
  const client = drawClient(ctx);
  const minorityMax = Math.ceil(nodes / 2) - 1; // fewer than half
  const majorityMin = Math.floor(nodes / 2) + 1; // more than half
  const majority = minorityMax < 1 || drawChance(random, 0.5);
  const size = majority ? drawInt(random, majorityMin, nodes) : drawInt(random, 1, minorityMax);
  const lost = drawSome(random, Array.from({ length: nodes }, (_, i) => i + 1), size).sort((a, b) => a - b);
  const mode = drawOne(random, LINK_CUT_MODES);
  const healMs = drawIn(random, healAfterMs);
  const steps: ScenarioStep[] = [
    ...lost.map((node): ScenarioStep => ({ action: 'link-cut', client, node, mode, ...timed(timing, 0) })),
    ...lost.map((node): ScenarioStep => ({ action: 'link-heal', client, node, ...timed(timing, healMs) })),
  ];
  return {
    kind: 'partition',
    timing,
    steps,
    occupations: lost.map((node) => ({ target: linkTarget(client, node), from: timing.at, to: timing.at + healMs })),
    cutsOf: client,
  };
}
