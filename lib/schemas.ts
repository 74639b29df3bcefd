/**
 * zod schemas for the payloads a browser may send about its lab (faults' inputs are the
 * catalogue's, lib/faults/inputs.ts). The server parses each
 * message with these before it touches anything; the inferred types are the
 * payload types of ClientToServerEvents, so the two cannot drift apart.
 */
import { z } from 'zod';
import { MAX_CLIENTS, MIN_NODES, MAX_NODES, PERSISTENCE_MODES, TOPOLOGY_KINDS } from './cluster';

const clientId = z.number().int().min(1).max(MAX_CLIENTS);

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

/**
 * "Use the lab here": one of this browser's labs, open in another tab, moves to this one (its view rebuilt for
 * this page: `topology`, `clients`). `place` is this tab in the learner's words (its page's title), which the
 * tab that loses the lab shows as where it went; it only ever reaches the tabs of the same browser.
 */
export const labTakeSchema = z
  .object({ topology: topologySchema.optional(), clients: clientId.optional(), place: z.string().trim().max(120).optional() })
  .strict();

export const labResetSchema = z
  .object({ topology: topologySchema.optional(), clients: clientId.optional() })
  .strict();

export { emptySchema } from './faults/inputs';

export type LabJoinInput = z.input<typeof labJoinSchema>;
export type LabResetInput = z.input<typeof labResetSchema>;
export type LabTakeInput = z.input<typeof labTakeSchema>;
export type TopologyInput = z.input<typeof topologySchema>;
