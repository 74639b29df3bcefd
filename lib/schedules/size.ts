/**
 * How big a schedule is, for the shrinker: fewer faults first, then fewer
 * steps, fewer clients, shorter faults, earlier faults. Every shrink candidate
 * must be strictly smaller in this order, which is what makes a greedy shrink
 * end (each accepted step goes down a well-founded order).
 */
import { magnitudeOf } from '../faults/catalogue';
import type { Scenario } from '../scenario';
import { groupSteps } from './groups';

/** [faults, steps, clients, total magnitude in ms, total fault time in ms], compared left to right. */
export type ScheduleSize = readonly [number, number, number, number, number];

export function scheduleSize(scenario: Scenario): ScheduleSize {
  const { groups } = groupSteps(scenario);
  let total = 0;
  let times = 0;
  for (const g of groups) {
    const faults = g.faults.map((i) => scenario.steps[i]!);
    const start = faults[0]!.at;
    for (const f of faults) {
      total += magnitudeOf(f);
      times += f.at;
    }
    for (const r of g.recoveries) total += scenario.steps[r]!.at - start;
  }
  return [groups.length, scenario.steps.length, scenario.clients, total, times];
}

export function isSmaller(a: ScheduleSize, b: ScheduleSize): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}
