/**
 * Every command a browser may send (lib/protocol.ts's ClientToServerEvents)
 * and the zod schema its input is parsed with. The server parses at its edge,
 * once, before any handler or domain code sees the input, and answers with
 * the value type the protocol declares for that command's ack: a handler
 * that returns the wrong thing does not compile.
 */
import type { z } from 'zod';
import {
  classroomCommandSchema,
  classroomCreateSchema,
  classroomDemoSchema,
  classroomFollowSchema,
  classroomJoinSchema,
  classroomLearnerSchema,
  classroomProgressSchema,
} from './classroom';
import { FAULT_OPS, FAULTS, type FaultOp } from './faults/catalogue';
import { emptySchema, FAULT_INPUTS } from './faults/inputs';
import { exploreInputSchema } from './explore';
import { experimentInputSchema } from './experiment/input';
import { exerciseCheckSchema } from './grading';
import type { Ack, ClientEventName, ClientToServerEvents } from './protocol';
import { runBreakSchema, runContinueSchema, runStartSchema } from './run';
import { labJoinSchema, labResetSchema, labTakeSchema } from './schemas';
import { parseInput } from './validate';

type FaultInputsByEvent = { [K in FaultOp as (typeof FAULTS)[K]['event']]: (typeof FAULT_INPUTS)[K] };

const faultInputs = Object.fromEntries(FAULT_OPS.map((op) => [FAULTS[op].event, FAULT_INPUTS[op]])) as FaultInputsByEvent;

/** What a browser sends for command E, as the protocol types it. */
export type CommandRequest<E extends ClientEventName> = Parameters<ClientToServerEvents[E]>[0];
/** What command E's ack carries when it succeeds. */
export type CommandValue<E extends ClientEventName> = Parameters<ClientToServerEvents[E]>[1] extends Ack<infer T> ? T : never;

export const COMMAND_INPUTS = {
  'lab:join': labJoinSchema,
  'lab:reset': labResetSchema,
  'lab:take': labTakeSchema,
  'run:start': runStartSchema,
  'run:stop': emptySchema,
  'run:break': runBreakSchema,
  'run:continue': runContinueSchema,
  'exercise:check': exerciseCheckSchema,
  'explore:run': exploreInputSchema,
  'experiment:run': experimentInputSchema,
  'classroom:create': classroomCreateSchema,
  'classroom:join': classroomJoinSchema,
  'classroom:leave': emptySchema,
  'classroom:command': classroomCommandSchema,
  'classroom:demo': classroomDemoSchema,
  'classroom:follow': classroomFollowSchema,
  'classroom:end': emptySchema,
  'classroom:progress': classroomProgressSchema,
  'classroom:demos': emptySchema,
  'classroom:remove': classroomLearnerSchema,
  'classroom:readmit': classroomLearnerSchema,
  ...faultInputs,
  // Each schema accepts exactly what the protocol lets a browser send for its command.
} as const satisfies { [E in ClientEventName]: z.ZodType<unknown, CommandRequest<E>> };

/** Command E's input after parsing (defaults filled in). */
export type CommandInput<E extends ClientEventName> = z.output<(typeof COMMAND_INPUTS)[E]>;

/** Parses what a browser sent for `event`; a bad input throws `invalid-input` naming each bad field. */
export function parseCommand<E extends ClientEventName>(event: E, raw: unknown): CommandInput<E> {
  return parseInput(COMMAND_INPUTS[event], raw, event) as CommandInput<E>;
}
