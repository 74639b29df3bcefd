/**
 * The input schema of every fault in the catalogue (catalogue.ts), used at
 * every edge where a fault comes in: a browser's socket message, a classroom
 * command, a scenario step (which adds its timing to the same schema, so a
 * scenario cannot allow what the buttons refuse). Bounds live here once.
 */
import { z } from 'zod';
import { LINK_CUT_MODES, MAX_CLIENTS, MAX_NODES, PERSISTENCE_MODES } from '../cluster';
import type { FaultOp } from './catalogue';

const node = z.number().int().min(1).max(MAX_NODES);
const client = z.number().int().min(1).max(MAX_CLIENTS);
/** Fault durations are bounded so a typo cannot wedge a lab for hours. */
const restartDelay = z.number().int().min(0).max(600_000);
const linkDelay = z.number().int().min(0).max(60_000);
/**
 * A link's delay may be a fraction of a millisecond: the Arabic production write-up's nodes are 0.4–0.8 ms apart,
 * and lesson 8's experiment asks for exactly that. Whole tenths at most (what a person would type).
 */
const linkDelayMs = z
  .number()
  .min(0)
  .max(60_000)
  .refine((ms) => Math.abs(ms * 10 - Math.round(ms * 10)) < 1e-9, 'a delay in whole tenths of a millisecond');

export const nodeTargetSchema = z.object({ node }).strict();
export const linkTargetSchema = z.object({ client, node }).strict();
export const clientTargetSchema = z.object({ client }).strict();
export const emptySchema = z.object({}).strict();

export const FAULT_INPUTS = {
  'node-kill': nodeTargetSchema,
  'node-restart': z
    .object({
      node,
      /** Wait this long before the process comes back (redis.io's "delayed restart"). */
      delayMs: restartDelay.optional(),
      /** Restart with another persistence mode; `none` starts with an empty data set. */
      persistence: z.enum(PERSISTENCE_MODES).optional(),
    })
    .strict(),
  'node-pause': nodeTargetSchema,
  'node-resume': nodeTargetSchema,
  'node-clock-jump': z.object({ node, jumpMs: z.number().int().min(1).max(86_400_000) }).strict(),
  'link-cut': z.object({ client, node, mode: z.enum(LINK_CUT_MODES).default('blackhole') }).strict(),
  'link-heal': linkTargetSchema,
  'link-delay': z.object({ client, node, delayMs: linkDelayMs, jitterMs: linkDelayMs.default(0) }).strict(),
  'replication-hold': emptySchema,
  'replication-release': emptySchema,
  'replication-delay': z.object({ delayMs: linkDelay }).strict(),
  failover: emptySchema,
  'client-pause': z
    .object({
      client,
      /** Resume by itself after this long; without it the client stays paused until resumed. */
      durationMs: z.number().int().min(1).max(120_000).optional(),
    })
    .strict(),
  'client-resume': clientTargetSchema,
  'client-crash': clientTargetSchema,
  'client-skew': z.object({ client, offsetMs: z.number().int().min(-3_600_000).max(3_600_000) }).strict(),
  'client-disconnect': clientTargetSchema,
} as const satisfies { [K in FaultOp]: z.ZodObject };

/** A fault's input after parsing (defaults filled in). */
export type FaultInput<K extends FaultOp> = z.output<(typeof FAULT_INPUTS)[K]>;
/** What a browser may send for it (defaults optional). */
export type FaultRequest<K extends FaultOp> = z.input<(typeof FAULT_INPUTS)[K]>;
