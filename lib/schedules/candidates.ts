/**
 * The shrinker's moves: every schedule one step smaller than a failing one,
 * most promising first, as QuickCheck and Jepsen order them — drop faults
 * (half of them, then one at a time), then simplify what is left (a smaller
 * partition, a stray recovery, one client fewer), then make faults shorter and
 * earlier. Each candidate parses with scenarioSchema and is strictly smaller
 * (size.ts), so a greedy shrink always ends.
 */
import { smallerMagnitudes } from '../faults/catalogue';
import { scenarioSchema, type Scenario, type ScenarioStep } from '../scenario';
import { scheduleDescription } from './describe';
import { groupSteps, type FaultGroup } from './groups';
import { isSmaller, scheduleSize } from './size';
import { retimed } from './steps';
import { towards } from './towards';

export { towards } from './towards';

const without = (scenario: Scenario, drop: ReadonlySet<number>): Scenario => ({ ...scenario, steps: scenario.steps.filter((_, i) => !drop.has(i)) });

const editing = (scenario: Scenario, edits: ReadonlyMap<number, ScenarioStep>): Scenario => ({
  ...scenario,
  steps: scenario.steps.map((step, i) => edits.get(i) ?? step),
});

const stepsOf = (group: FaultGroup): number[] => [...group.faults, ...group.recoveries];

/** Drop faults with their recoveries: halves first when there are several (delta debugging), then each one. */
function removals(scenario: Scenario, groups: FaultGroup[]): Scenario[] {
  const out: Scenario[] = [];
  if (groups.length >= 4) {
    const half = Math.floor(groups.length / 2);
    out.push(without(scenario, new Set(groups.slice(0, half).flatMap(stepsOf))));
    out.push(without(scenario, new Set(groups.slice(half).flatMap(stepsOf))));
  }
  for (const g of groups) out.push(without(scenario, new Set(stepsOf(g))));
  return out;
}

/** A partition one link smaller: one of its cuts dropped, with that link's heal. */
function smallerPartitions(scenario: Scenario, groups: FaultGroup[]): Scenario[] {
  const out: Scenario[] = [];
  for (const g of groups.filter((g) => g.faults.length > 1)) {
    for (const f of g.faults) {
      const cut = scenario.steps[f]!;
      if (cut.action !== 'link-cut') continue;
      const heals = g.recoveries.filter((r) => {
        const heal = scenario.steps[r]!;
        return heal.action === 'link-heal' && heal.node === cut.node;
      });
      out.push(without(scenario, new Set([f, ...heals])));
    }
  }
  return out;
}

/** The last client, when nothing of the schedule names it: no step on it, no trigger waiting for it. */
function fewerClients(scenario: Scenario): Scenario[] {
  const last = scenario.clients;
  if (last <= 1) return [];
  const named = scenario.steps.some((s) => ('client' in s && s.client === last) || s.when?.client === last);
  return named ? [] : [{ ...scenario, clients: last - 1 }];
}

/** Shorter faults: a smaller magnitude, or the recovery closer to its fault — 1 ms after it at the closest, never before. */
function shorter(scenario: Scenario, groups: FaultGroup[]): Scenario[] {
  const out: Scenario[] = [];
  for (const g of groups) {
    for (const f of g.faults) {
      for (const step of smallerMagnitudes(scenario.steps[f]!)) out.push(editing(scenario, new Map([[f, step]])));
    }
    if (g.recoveries.length === 0) continue;
    const start = scenario.steps[g.faults[0]!]!.at;
    const gap = Math.max(...g.recoveries.map((r) => scenario.steps[r]!.at - start));
    for (const closer of towards(gap, 1)) {
      const edits = new Map(
        g.recoveries.map((r): [number, ScenarioStep] => {
          const recovery = scenario.steps[r]!;
          return [r, retimed(recovery, start + Math.min(recovery.at - start, closer))];
        }),
      );
      out.push(editing(scenario, edits));
    }
  }
  return out;
}

/** A fault moved earlier (to its start, then halfway), its recoveries with it so it lasts as long. */
function earlier(scenario: Scenario, groups: FaultGroup[]): Scenario[] {
  const out: Scenario[] = [];
  for (const g of groups) {
    const start = scenario.steps[g.faults[0]!]!.at;
    for (const at of [...new Set([0, Math.floor(start / 2)])].filter((at) => at < start)) {
      const shift = start - at;
      out.push(editing(scenario, new Map(stepsOf(g).map((i): [number, ScenarioStep] => [i, retimed(scenario.steps[i]!, scenario.steps[i]!.at - shift)]))));
    }
  }
  return out;
}

export function shrinkCandidates(scenario: Scenario): Scenario[] {
  const { groups, orphans } = groupSteps(scenario);
  const all = [
    ...removals(scenario, groups),
    ...smallerPartitions(scenario, groups),
    ...orphans.map((i) => without(scenario, new Set([i]))),
    ...fewerClients(scenario),
    ...shorter(scenario, groups),
    ...earlier(scenario, groups),
  ];
  const size = scheduleSize(scenario);
  const seen = new Set<string>();
  // The moves above keep a schedule's pairs together; these checks keep the promise for any scenario a lesson writes.
  // A candidate's description is said from its steps, so it adds nothing to what tells two apart: said last, once each.
  const kept = all.filter((c) => {
    const key = JSON.stringify(c);
    if (seen.has(key)) return false;
    seen.add(key);
    return isSmaller(scheduleSize(c), size) && scenarioSchema.safeParse(c).success;
  });
  // A candidate says what it now holds, so the schedule a shrink ends on describes itself.
  return kept.map((c) => ({ ...c, description: scheduleDescription(c) }));
}
