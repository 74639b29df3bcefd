/**
 * Scenarios: a timed, seeded script of client starts and faults. Lessons,
 * graders and instructors all describe their failure demos this way, so one
 * schema (here, isomorphic) serves the server's runner and the browser's picker.
 */
import { z } from 'zod';
import { DEFAULT_CLIENTS, MAX_CLIENTS, MAX_NODES } from './cluster';
import { FAULT_OPS, type FaultOp } from './faults/catalogue';
import { FAULT_INPUTS, type FaultInput, type FaultRequest } from './faults/inputs';
import type { HistoryEvent } from './history';
import { seededRandom } from './random';

const node = z.number().int().min(1).max(MAX_NODES);
const client = z.number().int().min(1).max(MAX_CLIENTS);
/** Whose event: a client, or (left out) any client of the run — "the second time anyone enters the job". */
const anyClient = client.optional();
/** How many matching events to wait for: 2 = the second time Client 1 enters its job. */
const nth = z.number().int().min(1).max(1_000).default(1);
/**
 * Count only events after the trigger's client (any client when it names none) logged a line containing this
 * text: "the first command Client 1 sends after it logs 'probe: release begins'" is a moment *inside* a
 * function, which is where a crash or a pause between two commands does its harm.
 */
const since = z.string().min(1).max(200).optional();
/** A command name, or `*` for any command. */
const commandName = z.union([z.literal('*'), z.string().regex(/^[A-Za-z][A-Za-z.|_-]{0,31}$/)]);

/**
 * A moment of the run a step can wait for instead of a time: "when Client 1
 * enters its job". A fault aimed at a clock time misses its moment when the
 * machine is busy (Client 1 may not hold the lock yet at 400 ms); aimed at the
 * event, it lands where the lesson means it to, however slow the run.
 */
export const triggerSchema = z.discriminatedUnion('on', [
  /**
   * The client starts (before its first line runs). A client fault at this moment lands before any
   * client's code does: "Client 2 waits until Client 1 holds the lock" is a pause of Client 2 when
   * Client 1 starts (a client paused before its start begins when resumed) and a resume later.
   */
  z.object({ on: z.literal('client-start'), client: anyClient, nth, since }).strict(),
  /** The `redlock` module (or a lesson's helper) reported the lock granted. */
  z.object({ on: z.literal('lock-acquired'), client: anyClient, nth, since }).strict(),
  /** The client entered (or left) a protected job; any job unless one is named. */
  z.object({ on: z.literal('job-enter'), client: anyClient, job: z.string().min(1).max(100).optional(), nth, since }).strict(),
  z.object({ on: z.literal('job-exit'), client: anyClient, job: z.string().min(1).max(100).optional(), nth, since }).strict(),
  /**
   * A Redis command of the client's was answered without an error ("SET", or `*` for any; any node unless one is
   * named; any reply unless one is named: `"reply": "OK"` counts only the commands that said OK — a vote granted,
   * whether the learner sent a SET or a script that sets).
   */
  z.object({
    on: z.literal('command-answered'),
    client: anyClient,
    command: commandName,
    node: node.optional(),
    reply: z.string().min(1).max(100).optional(),
    /** Only a command on this key (a script's or function's KEYS count): "the fencing counter is answered", whichever command keeps it. */
    key: z.string().min(1).max(200).optional(),
    nth,
    since,
  }).strict(),
  /** The client logged a line containing this text. */
  z.object({ on: z.literal('log'), client: anyClient, text: z.string().min(1).max(200), nth, since }).strict(),
]);
export type Trigger = z.output<typeof triggerSchema>;

/** Without `when`, `at` is ms after the program starts; with it, ms after the trigger's event. */
const timing = {
  at: z.number().int().min(0).max(120_000),
  when: triggerSchema.optional(),
  /**
   * A node fault waiting for a command to be answered acts on the node that answered it, whatever `node` says:
   * "kill the node that answered Client 1's third SET" — the vote that made the quorum.
   */
  onAnsweringNode: z.literal(true).optional(),
};

/** A scenario step: a fault of the catalogue with its input (the very schema the buttons use) and its timing. */
export type ScenarioStep = { [K in FaultOp]: FaultInput<K> & { action: K; at: number; when?: Trigger; onAnsweringNode?: true } }[FaultOp];
type ScenarioStepInput = { [K in FaultOp]: FaultRequest<K> & { action: K; at: number; when?: z.input<typeof triggerSchema>; onAnsweringNode?: true } }[FaultOp];

const stepSchemaOf = (op: FaultOp) => FAULT_INPUTS[op].extend({ ...timing, action: z.literal(op) });
/**
 * Built from the catalogue, so it has a step for every fault and the same bounds as the live commands. zod
 * cannot type a union mapped from a list, so its type is stated once here (ScenarioStep, above).
 */
export const scenarioStepSchema = z.discriminatedUnion(
  'action',
  FAULT_OPS.map(stepSchemaOf) as unknown as [ReturnType<typeof stepSchemaOf>, ...ReturnType<typeof stepSchemaOf>[]],
) as unknown as z.ZodType<ScenarioStep, ScenarioStepInput>;

export const scenarioSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lower-case letters, digits and dashes'),
    title: z.string().min(1).max(120),
    description: z.string().max(2_000).default(''),
    /** Same seed, same schedule: the jitter below and anything random in a run derive from it. */
    seed: z.number().int().min(0).max(2 ** 32 - 1).default(1),
    clients: z.number().int().min(1).max(MAX_CLIENTS).default(DEFAULT_CLIENTS),
    /** Client n starts at (n − 1) × staggerMs. */
    staggerMs: z.number().int().min(0).max(10_000).default(0),
    /** Each step fires up to this many ms late, drawn from the seed (0 = exactly on time). */
    jitterMs: z.number().int().min(0).max(10_000).default(0),
    steps: z.array(scenarioStepSchema).max(200).default([]),
  })
  .strict()
  .superRefine((scenario, ctx) => {
    scenario.steps.forEach((step, i) => {
      if (step.onAnsweringNode && (!('node' in step) || step.when?.on !== 'command-answered'))
        ctx.addIssue({ code: 'custom', path: ['steps', i, 'onAnsweringNode'], message: 'only a node fault waiting for a command to be answered can act on the node that answered' });
    });
  });

export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type ScenarioAction = ScenarioStep['action'];

export interface ScheduledStep {
  /** ms after the run starts, or after the step's trigger if it has one. */
  at: number;
  step: ScenarioStep;
}

/**
 * The exact schedule a scenario produces: steps in time order (stable for equal times), jitter drawn from the seed.
 * A triggered step keeps its place in this order, but its `at` counts from its trigger.
 */
export function schedule(scenario: Scenario): ScheduledStep[] {
  const random = seededRandom(scenario.seed);
  return scenario.steps
    .map((step, index) => ({ at: step.at + Math.round(random() * scenario.jitterMs), step, index }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ at: time, step }) => ({ at: time, step }));
}

/** Client n's start time. */
export const clientStart = (scenario: Scenario, clientId: number): number => (clientId - 1) * scenario.staggerMs;

/** The step as it acts once its trigger's event is known: a step `onAnsweringNode` takes that event's node. */
export function resolveStep(step: ScenarioStep, event: HistoryEvent | undefined): ScenarioStep {
  if (!step.onAnsweringNode || !('node' in step) || event?.type !== 'redis') return step;
  const { onAnsweringNode: _resolved, ...rest } = step;
  return { ...rest, node: event.node } as ScenarioStep;
}
