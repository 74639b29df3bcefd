/**
 * zod schemas for every payload a browser may send. The server parses each
 * message with these before it touches anything; the inferred types are the
 * payload types of ClientToServerEvents, so the two cannot drift apart.
 */
import { z } from 'zod';
import { LINK_CUT_MODES, MAX_CLIENTS, MAX_NODES, MIN_NODES, PERSISTENCE_MODES, TOPOLOGY_KINDS } from './cluster';

const nodeId = z.number().int().min(1).max(MAX_NODES);
const clientId = z.number().int().min(1).max(MAX_CLIENTS);
/** Fault durations are bounded so a typo cannot wedge a lab for hours. */
const durationMs = z.number().int().min(0).max(600_000);

export const topologySchema = z
  .object({
    kind: z.enum(TOPOLOGY_KINDS).default('masters'),
    /** Defaults to 5 for `masters` and 2 for `replicated`. */
    nodes: z.number().int().min(MIN_NODES).max(MAX_NODES).optional(),
    persistence: z.enum(PERSISTENCE_MODES).default('none'),
  })
  .strict()
  .refine((t) => t.kind !== 'replicated' || t.nodes === undefined || t.nodes === 2, {
    message: 'a replicated topology has exactly 2 nodes: Node 1 (master) and Node 2 (its replica)',
    path: ['nodes'],
  })
  .transform((t) => ({ ...t, nodes: t.nodes ?? (t.kind === 'replicated' ? 2 : 5) }));

export const labJoinSchema = z
  .object({
    /** Re-attach to this lab if it still exists (a reload or reconnect of the same tab). */
    labId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/).optional(),
    topology: topologySchema.optional(),
    clients: clientId.optional(),
    /**
     * The tab moved to another page: rebuild its lab in place (the page's
     * topology, or the default) with no run and no history shown, instead of
     * carrying the previous page's nodes and verdict over.
     */
    clean: z.boolean().optional(),
  })
  .strict();

export const labResetSchema = z
  .object({ topology: topologySchema.optional(), clients: clientId.optional() })
  .strict();

export const nodeTargetSchema = z.object({ node: nodeId }).strict();

export const nodeRestartSchema = z
  .object({
    node: nodeId,
    /** Wait this long before the process comes back (redis.io's "delayed restart"). */
    delayMs: durationMs.optional(),
    /** Restart with another persistence mode; `none` starts with an empty data set. */
    persistence: z.enum(PERSISTENCE_MODES).optional(),
  })
  .strict();

export const clockJumpSchema = z
  .object({ node: nodeId, jumpMs: z.number().int().min(1).max(86_400_000) })
  .strict();

export const linkTargetSchema = z.object({ client: clientId, node: nodeId }).strict();

export const linkCutSchema = z
  .object({ client: clientId, node: nodeId, mode: z.enum(LINK_CUT_MODES).default('blackhole') })
  .strict();

export const linkDelaySchema = z
  .object({
    client: clientId,
    node: nodeId,
    delayMs: z.number().int().min(0).max(60_000),
    jitterMs: z.number().int().min(0).max(60_000).default(0),
  })
  .strict();

export const replicationDelaySchema = z.object({ delayMs: z.number().int().min(0).max(60_000) }).strict();
export const emptySchema = z.object({}).strict();

export type LabJoinInput = z.input<typeof labJoinSchema>;
export type LabResetInput = z.input<typeof labResetSchema>;
export type NodeTarget = z.input<typeof nodeTargetSchema>;
export type NodeRestartInput = z.input<typeof nodeRestartSchema>;
export type ClockJumpInput = z.input<typeof clockJumpSchema>;
export type LinkTarget = z.input<typeof linkTargetSchema>;
export type LinkCutInput = z.input<typeof linkCutSchema>;
export type LinkDelayInput = z.input<typeof linkDelaySchema>;
export type ReplicationDelayInput = z.input<typeof replicationDelaySchema>;
export type TopologyInput = z.input<typeof topologySchema>;
