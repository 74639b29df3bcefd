/** Random schedules (lib/schedules): deterministic, valid, inside their space, and never more nodes down than maxDown. */
import { describe, expect, it } from 'vitest';
import { scenarioSchema, type Scenario, type ScenarioStep } from '@/lib/scenario';
import { faultSpaceSchema, generateSchedule, type FaultSpace } from '@/lib/schedules';
import { faultCount, groupSteps } from '@/lib/schedules/groups';
import { everyFault, MASTERS, REPLICATED } from './schedules-fixtures';


const EVERYTHING: FaultSpace = everyFault({ minMs: 200, maxMs: 2_000 });
/** Kills only, one node down at most: the space where maxDown binds hardest. */
const KILLS: FaultSpace = {
  clients: { min: 1, max: 3 },
  staggerMs: { min: 0, max: 0 },
  horizonMs: 2_000,
  maxFaults: 8,
  faults: [{ kind: 'node-kill', downMs: { min: 100, max: 1_500 }, maxDown: 1 }],
};
/** The bounds at their largest. */
const WIDE: FaultSpace = {
  clients: { min: 16, max: 16 },
  staggerMs: { min: 10_000, max: 10_000 },
  horizonMs: 60_000,
  maxFaults: 8,
  faults: [
    { kind: 'client-pause', minMs: 60_000, maxMs: 60_000 },
    { kind: 'partition', healAfterMs: { min: 60_000, max: 60_000 } },
    { kind: 'node-kill', downMs: { min: 60_000, max: 60_000 }, maxDown: 7 },
    { kind: 'client-skew', maxOffsetMs: 3_600_000 },
  ],
};
const CLIENTS_ONLY: FaultSpace = {
  clients: { min: 1, max: 1 },
  staggerMs: { min: 50, max: 50 },
  horizonMs: 0,
  maxFaults: 3,
  faults: [{ kind: 'client-pause', minMs: 1, maxMs: 10 }, { kind: 'client-crash' }],
};

const CASES: { name: string; space: FaultSpace; topology: { kind: string; nodes: number } }[] = [
  { name: 'everything, 5 masters', space: EVERYTHING, topology: MASTERS },
  { name: 'everything, replicated', space: EVERYTHING, topology: REPLICATED },
  { name: 'kills, 3 masters', space: KILLS, topology: { kind: 'masters', nodes: 3 } },
  { name: 'widest bounds, 7 masters', space: WIDE, topology: { kind: 'masters', nodes: 7 } },
  { name: 'one client', space: CLIENTS_ONLY, topology: { kind: 'masters', nodes: 1 } },
];
const SEEDS = Array.from({ length: 500 }, (_, i) => i * 7_919 + 3);

const targetClient = (s: ScenarioStep): number | undefined => ('client' in s ? s.client : undefined);
const targetNode = (s: ScenarioStep): number | undefined => ('node' in s ? s.node : undefined);

/** Nodes down at once, from the steps alone (kill → restart, failover → for good), as maxDown means it. */
function mostDown(s: Scenario): { kills: number; atOnce: number; triggered: boolean } {
  const downs: { from: number; to: number }[] = [];
  let triggered = false;
  for (const g of groupSteps(s).groups) {
    const fault = s.steps[g.faults[0]!]!;
    if (fault.action !== 'node-kill' && fault.action !== 'failover') continue;
    if (fault.when) triggered = true;
    const restart = g.recoveries.map((r) => s.steps[r]!).find((r) => r.action === 'node-restart');
    downs.push({ from: fault.at, to: restart ? restart.at : Infinity });
  }
  const atOnce = Math.max(0, ...downs.map((d) => downs.filter((o) => o.from <= d.from && d.from <= o.to).length));
  return { kills: downs.length, atOnce, triggered };
}

describe('faultSpaceSchema', () => {
  it('accepts the spaces these tests draw from', () => {
    for (const { space } of CASES) expect(faultSpaceSchema.safeParse(space).success).toBe(true);
  });

  it('refuses a space out of bounds, upside down, empty or with unknown keys', () => {
    const bad: unknown[] = [
      { ...EVERYTHING, maxFaults: 9 },
      { ...EVERYTHING, maxFaults: 0 },
      { ...EVERYTHING, faults: [] },
      { ...EVERYTHING, horizonMs: 60_001 },
      { ...EVERYTHING, clients: { min: 3, max: 2 } },
      { ...EVERYTHING, clients: { min: 1, max: 17 } },
      { ...EVERYTHING, extra: true },
      { ...EVERYTHING, faults: [{ kind: 'client-pause', minMs: 500, maxMs: 100 }] },
      { ...EVERYTHING, faults: [{ kind: 'node-kill', downMs: { min: 1, max: 60_001 }, maxDown: 1 }] },
      { ...EVERYTHING, faults: [{ kind: 'node-kill', downMs: { min: 1, max: 2 }, maxDown: 0 }] },
      { ...EVERYTHING, faults: [{ kind: 'link-delay', maxDelayMs: 0, healAfterMs: { min: 1, max: 2 } }] },
      { ...EVERYTHING, faults: [{ kind: 'client-crash', client: 1 }] },
      { ...EVERYTHING, faults: [{ kind: 'clock-jump' }] },
    ];
    for (const space of bad) expect(faultSpaceSchema.safeParse(space).success, JSON.stringify(space)).toBe(false);
  });
});

describe('generateSchedule', () => {
  it('is deterministic: the same space, topology and seed give the same scenario', () => {
    for (const { space, topology } of CASES) {
      for (const seed of SEEDS.slice(0, 50)) expect(generateSchedule(space, topology, seed)).toStrictEqual(generateSchedule(space, topology, seed));
    }
    const distinct = new Set(SEEDS.slice(0, 50).map((seed) => JSON.stringify(generateSchedule(EVERYTHING, MASTERS, seed).steps)));
    expect(distinct.size).toBeGreaterThan(45);
  });

  it('names, titles and describes the schedule by its seed', () => {
    const s = generateSchedule(EVERYTHING, MASTERS, 42);
    expect(s.id).toBe('random-42');
    expect(s.title).toBe('A random schedule (random seed 42)');
    expect(s.seed).toBe(42);
    expect(s.jitterMs).toBe(0);
    expect(s.description).toMatch(new RegExp(`^${faultCount(s)} faults?: `));
    expect(generateSchedule(EVERYTHING, MASTERS, 42, 'mine').id).toBe('mine');
    expect(() => generateSchedule(EVERYTHING, MASTERS, -1)).toThrow(RangeError);
  });

  for (const { name, space, topology } of CASES) {
    it(`${name}: 500 seeds give valid schedules inside the space`, () => {
      let triggered = 0;
      let faults = 0;
      for (const seed of SEEDS) {
        const s = generateSchedule(space, topology, seed);
        const why = `seed ${seed}: ${JSON.stringify(s)}`;
        const parsed = scenarioSchema.safeParse(s);
        expect(parsed.success, why).toBe(true);
        expect(parsed.data).toStrictEqual(s);
        expect(s.clients, why).toBeGreaterThanOrEqual(space.clients.min);
        expect(s.clients, why).toBeLessThanOrEqual(space.clients.max);
        expect(s.staggerMs, why).toBeGreaterThanOrEqual(space.staggerMs.min);
        expect(s.staggerMs, why).toBeLessThanOrEqual(space.staggerMs.max);
        const count = faultCount(s);
        expect(count, why).toBeGreaterThanOrEqual(1);
        expect(count, why).toBeLessThanOrEqual(space.maxFaults);
        faults += count;
        const { groups, orphans } = groupSteps(s);
        expect(orphans, why).toEqual([]);
        for (const step of s.steps) {
          expect(targetClient(step) ?? 1, why).toBeLessThanOrEqual(s.clients);
          expect(step.when?.client ?? 1, why).toBeLessThanOrEqual(s.clients);
          expect(targetNode(step) ?? 1, why).toBeLessThanOrEqual(topology.nodes);
          if (topology.kind !== 'replicated') expect(['replication-hold', 'replication-release', 'failover'], why).not.toContain(step.action);
        }
        for (const g of groups) {
          const fault = s.steps[g.faults[0]!]!;
          if (fault.when) triggered++;
          expect(fault.at, why).toBeLessThanOrEqual(fault.when ? Math.min(space.horizonMs, 500) : space.horizonMs);
          const needsRecovery = ['node-kill', 'node-pause', 'link-cut', 'link-delay', 'replication-hold'].includes(fault.action);
          expect(g.recoveries.length, why).toBe(needsRecovery ? g.faults.length : 0);
          for (const r of g.recoveries) {
            const recovery = s.steps[r]!;
            expect(recovery.when, why).toStrictEqual(fault.when);
            expect(recovery.at, why).toBeGreaterThan(fault.at);
          }
        }
      }
      // Half of the faults wait for a moment of the run; fewer where maxDown binds, since a triggered kill
      // counts against it for the whole run.
      expect(triggered / faults).toBeGreaterThan(space === KILLS ? 0.15 : 0.35);
      expect(triggered / faults).toBeLessThan(0.65);
    });
  }

  it('never has more than maxDown nodes down at once, and counts kills when a trigger is involved', () => {
    for (const [space, topology, maxDown] of [
      [KILLS, { kind: 'masters', nodes: 3 }, 1],
      [EVERYTHING, MASTERS, 2],
      [EVERYTHING, REPLICATED, 2],
    ] as const) {
      let most = 0;
      for (const seed of SEEDS) {
        const s = generateSchedule(space, topology, seed);
        const down = mostDown(s);
        expect(down.atOnce, `seed ${seed}`).toBeLessThanOrEqual(maxDown);
        if (down.triggered) expect(down.kills, `seed ${seed}`).toBeLessThanOrEqual(maxDown);
        most = Math.max(most, down.kills);
      }
      // Clock-timed kills that do not overlap may add up to more than maxDown: the bound is on nodes down at once.
      if (space === KILLS) expect(most).toBeGreaterThan(maxDown);
    }
  });

  it('never plans two faults on one node, link or client at once', () => {
    for (const seed of SEEDS) {
      const s = generateSchedule(EVERYTHING, MASTERS, seed);
      const held = groupSteps(s).groups.flatMap((g) => {
        const fault = s.steps[g.faults[0]!]!;
        const end = fault.action === 'client-pause' ? fault.at + (fault.durationMs ?? 0) : Math.max(fault.at, ...g.recoveries.map((r) => s.steps[r]!.at));
        const to = fault.action === 'client-crash' ? Infinity : end;
        return g.faults.map((i) => {
          const step = s.steps[i]!;
          const target = 'node' in step && 'client' in step ? `link ${step.client}:${step.node}` : 'node' in step ? `node ${step.node}` : 'client' in step ? `client ${step.client}` : step.action;
          return { target, from: fault.at, to, triggered: fault.when !== undefined };
        });
      });
      for (const [i, a] of held.entries()) {
        for (const b of held.slice(i + 1)) {
          if (a.target !== b.target) continue;
          const clash = a.triggered || b.triggered || (a.from <= b.to && b.from <= a.to);
          expect(clash, `seed ${seed}: two faults on ${a.target}`).toBe(false);
        }
      }
    }
  });

  it('draws nothing when no fault of the space applies to the topology', () => {
    const space: FaultSpace = { ...EVERYTHING, faults: [{ kind: 'failover' }] };
    const s = generateSchedule(space, MASTERS, 7);
    expect(s.steps).toEqual([]);
    expect(scenarioSchema.safeParse(s).success).toBe(true);
    expect(generateSchedule(space, REPLICATED, 7).steps.map((x) => x.action)).toEqual(['failover']);
  });

  it('splits a client from a minority or a majority of the nodes, cutting and healing each link', () => {
    const space: FaultSpace = { ...EVERYTHING, maxFaults: 1, faults: [{ kind: 'partition', healAfterMs: { min: 100, max: 100 } }] };
    const sizes = new Set<number>();
    for (const seed of SEEDS.slice(0, 100)) {
      const s = generateSchedule(space, MASTERS, seed);
      const cuts = s.steps.filter((x) => x.action === 'link-cut');
      const heals = s.steps.filter((x) => x.action === 'link-heal');
      expect(new Set(cuts.map((c) => targetClient(c))).size).toBe(1);
      expect(heals.map(targetNode)).toEqual(cuts.map(targetNode));
      expect(faultCount(s)).toBe(1);
      sizes.add(cuts.length);
    }
    expect([...sizes].sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
