/**
 * What "Explore" draws from in the playground, where no lesson says which
 * faults the program is meant to survive: the common ones, with recoveries,
 * at most two nodes down of five. A program written for fewer faults will be
 * told so by its first counter-example, which is the point of the playground.
 */
import type { FaultSpace } from '@/lib/schedules';

export const PLAYGROUND_SPACE: FaultSpace = {
  clients: { min: 2, max: 3 },
  staggerMs: { min: 0, max: 200 },
  horizonMs: 3000,
  maxFaults: 3,
  faults: [
    { kind: 'client-pause', minMs: 100, maxMs: 1500 },
    { kind: 'client-crash' },
    { kind: 'node-kill', downMs: { min: 1000, max: 4000 }, maxDown: 2 },
    { kind: 'link-cut', healAfterMs: { min: 200, max: 1500 } },
    { kind: 'partition', healAfterMs: { min: 300, max: 2000 } },
    { kind: 'replication-hold', releaseAfterMs: { min: 200, max: 1500 } },
    { kind: 'failover' },
  ],
};
