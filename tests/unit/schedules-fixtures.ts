/** Fault spaces and topologies the schedule tests share. */
import type { FaultSpace } from '@/lib/schedules';

export const MASTERS = { kind: 'masters', nodes: 5 };
export const REPLICATED = { kind: 'replicated', nodes: 2 };

/** Every kind of fault, with client pauses in the given range (the generator's and the shrinker's tests want different ones). */
export function everyFault(pause: { minMs: number; maxMs: number }): FaultSpace {
  return {
    clients: { min: 2, max: 4 },
    staggerMs: { min: 0, max: 200 },
    horizonMs: 3_000,
    maxFaults: 6,
    faults: [
      { kind: 'client-pause', ...pause },
      { kind: 'client-crash' },
      { kind: 'client-skew', maxOffsetMs: 1_000 },
      { kind: 'node-kill', downMs: { min: 500, max: 3_000 }, maxDown: 2 },
      { kind: 'node-pause', minMs: 100, maxMs: 1_500 },
      { kind: 'link-cut', healAfterMs: { min: 200, max: 2_000 } },
      { kind: 'partition', healAfterMs: { min: 500, max: 2_500 } },
      { kind: 'link-delay', maxDelayMs: 400, healAfterMs: { min: 300, max: 3_000 } },
      { kind: 'replication-hold', releaseAfterMs: { min: 200, max: 1_000 } },
      { kind: 'failover' },
    ],
  };
}
