/**
 * A fault space: what a lesson allows a random schedule to do (it goes in the
 * lesson's front matter). Jepsen's generators draw from a space like this; the
 * bounds keep every drawn schedule inside scenarioSchema's own bounds, so a
 * lesson author cannot write a space whose schedules the runner refuses.
 */
import { z } from 'zod';
import { MAX_CLIENTS, MAX_NODES } from '../cluster';

/**
 * A fault starts within the horizon and its recovery comes at most one duration later: 60 s + 60 s stays within
 * a step's `at` bound (120 s in lib/scenario.ts), so no drawn step can fall outside the schema.
 */
export const MAX_HORIZON_MS = 60_000;
export const MAX_DURATION_MS = 60_000;
/** A schedule's faults, not counting recoveries: Jepsen's counter-examples are read by people, so keep them few. */
export const MAX_FAULTS = 8;

export interface Range {
  min: number;
  max: number;
}

export interface FaultSpace {
  clients: Range;
  /** Client n starts at (n − 1) × stagger. */
  staggerMs: Range;
  /** Faults start within [0, horizonMs] of the run (or of their trigger). */
  horizonMs: number;
  /** 1..MAX_FAULTS faults per schedule; a recovery step does not count. */
  maxFaults: number;
  faults: FaultKind[];
}

export type FaultKind =
  | { kind: 'client-pause'; minMs: number; maxMs: number }
  | { kind: 'client-crash' }
  | { kind: 'client-skew'; maxOffsetMs: number }
  | { kind: 'node-kill'; downMs: Range; maxDown: number }
  | { kind: 'node-pause'; minMs: number; maxMs: number }
  | { kind: 'link-cut'; healAfterMs: Range }
  | { kind: 'partition'; healAfterMs: Range }
  | { kind: 'link-delay'; maxDelayMs: number; healAfterMs: Range }
  | { kind: 'replication-hold'; releaseAfterMs: Range }
  | { kind: 'failover' };
export type FaultKindName = FaultKind['kind'];

const minNotAboveMax = { message: 'min must not be above max' };
/** A duration between a fault and its recovery: at least 1 ms, so the recovery is never played before its fault. */
const duration = z.number().int().min(1).max(MAX_DURATION_MS);
const durationRange = z
  .object({ min: duration, max: duration })
  .strict()
  .refine((r) => r.min <= r.max, minNotAboveMax);
const minMax = { minMs: duration, maxMs: duration };
const minMaxOrdered = (r: { minMs: number; maxMs: number }) => r.minMs <= r.maxMs;

const faultKindSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('client-pause'), ...minMax }).strict().refine(minMaxOrdered, minNotAboveMax),
  z.object({ kind: z.literal('client-crash') }).strict(),
  // The clients' skew bound in lib/faults/inputs.ts; 0 would draw a skew that does nothing.
  z.object({ kind: z.literal('client-skew'), maxOffsetMs: z.number().int().min(1).max(3_600_000) }).strict(),
  z.object({ kind: z.literal('node-kill'), downMs: durationRange, maxDown: z.number().int().min(1).max(MAX_NODES) }).strict(),
  z.object({ kind: z.literal('node-pause'), ...minMax }).strict().refine(minMaxOrdered, minNotAboveMax),
  z.object({ kind: z.literal('link-cut'), healAfterMs: durationRange }).strict(),
  z.object({ kind: z.literal('partition'), healAfterMs: durationRange }).strict(),
  // At least 1 ms: a link-delay of 0 is how a delay is lifted, so it reads as a recovery.
  z.object({ kind: z.literal('link-delay'), maxDelayMs: z.number().int().min(1).max(60_000), healAfterMs: durationRange }).strict(),
  z.object({ kind: z.literal('replication-hold'), releaseAfterMs: durationRange }).strict(),
  z.object({ kind: z.literal('failover') }).strict(),
]);

const clientCount = z.number().int().min(1).max(MAX_CLIENTS);
const stagger = z.number().int().min(0).max(10_000);

export const faultSpaceSchema: z.ZodType<FaultSpace, FaultSpace> = z
  .object({
    clients: z.object({ min: clientCount, max: clientCount }).strict().refine((r) => r.min <= r.max, minNotAboveMax),
    staggerMs: z.object({ min: stagger, max: stagger }).strict().refine((r) => r.min <= r.max, minNotAboveMax),
    horizonMs: z.number().int().min(0).max(MAX_HORIZON_MS),
    maxFaults: z.number().int().min(1).max(MAX_FAULTS),
    faults: z.array(faultKindSchema).min(1).max(16),
  })
  .strict();

/** Replication faults need the replicated topology (Node 1 master, Node 2 replica), as the catalogue says. */
const NEEDS_REPLICA: ReadonlySet<FaultKindName> = new Set(['replication-hold', 'failover']);

/** The kinds of a space that can happen in this topology. */
export function kindsFor(space: FaultSpace, topology: { kind: string }): FaultKind[] {
  return space.faults.filter((f) => topology.kind === 'replicated' || !NEEDS_REPLICA.has(f.kind));
}
