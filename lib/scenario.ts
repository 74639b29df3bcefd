/**
 * Scenarios: a timed, seeded script of client starts and faults. Lessons,
 * graders and instructors all describe their failure demos this way, so one
 * schema (here, isomorphic) serves the server's runner and the browser's picker.
 */
import { z } from 'zod';
import { LINK_CUT_MODES, MAX_CLIENTS, MAX_NODES, PERSISTENCE_MODES } from './cluster';
import { seededRandom } from './random';

const node = z.number().int().min(1).max(MAX_NODES);
const client = z.number().int().min(1).max(MAX_CLIENTS);
const at = z.number().int().min(0).max(120_000);
const duration = z.number().int().min(0).max(120_000);

export const scenarioStepSchema = z.discriminatedUnion('action', [
  z.object({ at, action: z.literal('node-kill'), node }).strict(),
  z.object({ at, action: z.literal('node-restart'), node, delayMs: duration.optional(), persistence: z.enum(PERSISTENCE_MODES).optional() }).strict(),
  z.object({ at, action: z.literal('node-pause'), node }).strict(),
  z.object({ at, action: z.literal('node-resume'), node }).strict(),
  z.object({ at, action: z.literal('node-clock-jump'), node, jumpMs: z.number().int().min(1).max(86_400_000) }).strict(),
  z.object({ at, action: z.literal('link-cut'), client, node, mode: z.enum(LINK_CUT_MODES).default('blackhole') }).strict(),
  z.object({ at, action: z.literal('link-heal'), client, node }).strict(),
  z.object({ at, action: z.literal('link-delay'), client, node, delayMs: duration, jitterMs: duration.default(0) }).strict(),
  z.object({ at, action: z.literal('replication-hold') }).strict(),
  z.object({ at, action: z.literal('replication-release') }).strict(),
  z.object({ at, action: z.literal('failover') }).strict(),
  z.object({ at, action: z.literal('client-pause'), client, durationMs: duration }).strict(),
  z.object({ at, action: z.literal('client-resume'), client }).strict(),
  z.object({ at, action: z.literal('client-crash'), client }).strict(),
  z.object({ at, action: z.literal('client-skew'), client, offsetMs: z.number().int().min(-3_600_000).max(3_600_000) }).strict(),
]);

export const scenarioSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lower-case letters, digits and dashes'),
    title: z.string().min(1).max(120),
    description: z.string().max(2_000).default(''),
    /** Same seed, same schedule: the jitter below and anything random in a run derive from it. */
    seed: z.number().int().min(0).max(2 ** 32 - 1).default(1),
    clients: z.number().int().min(1).max(MAX_CLIENTS).default(3),
    /** Client n starts at (n − 1) × staggerMs. */
    staggerMs: z.number().int().min(0).max(10_000).default(0),
    /** Each step fires up to this many ms late, drawn from the seed (0 = exactly on time). */
    jitterMs: z.number().int().min(0).max(10_000).default(0),
    steps: z.array(scenarioStepSchema).max(200).default([]),
  })
  .strict();

export type ScenarioStep = z.output<typeof scenarioStepSchema>;
export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type ScenarioAction = ScenarioStep['action'];

export interface ScheduledStep {
  /** ms after the run starts. */
  at: number;
  step: ScenarioStep;
}

/** The exact schedule a scenario produces: steps in time order (stable for equal times), jitter drawn from the seed. */
export function schedule(scenario: Scenario): ScheduledStep[] {
  const random = seededRandom(scenario.seed);
  return scenario.steps
    .map((step, index) => ({ at: step.at + Math.round(random() * scenario.jitterMs), step, index }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ at: time, step }) => ({ at: time, step }));
}

/** Client n's start time. */
export const clientStart = (scenario: Scenario, clientId: number): number => (clientId - 1) * scenario.staggerMs;

/** A step in words, for the history and the timeline. */
export function describeStep(step: ScenarioStep): string {
  switch (step.action) {
    case 'node-kill':
      return `kill Node ${step.node}`;
    case 'node-restart':
      return `restart Node ${step.node}${step.delayMs ? ` after ${step.delayMs} ms` : ''}${step.persistence ? ` (${step.persistence})` : ''}`;
    case 'node-pause':
      return `pause Node ${step.node}`;
    case 'node-resume':
      return `resume Node ${step.node}`;
    case 'node-clock-jump':
      return `jump Node ${step.node}'s clock ${step.jumpMs} ms forward`;
    case 'link-cut':
      return `cut Client ${step.client} → Node ${step.node} (${step.mode})`;
    case 'link-heal':
      return `heal Client ${step.client} → Node ${step.node}`;
    case 'link-delay':
      return `delay Client ${step.client} → Node ${step.node} by ${step.delayMs} ms`;
    case 'replication-hold':
      return 'hold replication back';
    case 'replication-release':
      return 'release replication';
    case 'failover':
      return 'fail over Node 1 → Node 2';
    case 'client-pause':
      return `pause Client ${step.client} for ${step.durationMs} ms`;
    case 'client-resume':
      return `resume Client ${step.client}`;
    case 'client-crash':
      return `crash Client ${step.client}`;
    case 'client-skew':
      return `skew Client ${step.client}'s clock by ${step.offsetMs} ms`;
  }
}
