/**
 * How big a schedule is, for the shrinker: fewer faults first, then fewer
 * steps, fewer clients, shorter faults, earlier faults. Every shrink candidate
 * must be strictly smaller in this order, which is what makes a greedy shrink
 * end (each accepted step goes down a well-founded order).
 */
import type { Scenario, ScenarioStep } from '../scenario';
import { groupSteps } from './groups';

/** [faults, steps, clients, total magnitude in ms, total fault time in ms], compared left to right. */
export type ScheduleSize = readonly [number, number, number, number, number];

/** What a fault step lasts or moves by, beyond its recovery: a pause's own duration, a delay, a skew, a clock jump. */
function magnitude(step: ScenarioStep): number {
  switch (step.action) {
    case 'client-pause':
      return step.durationMs ?? 0;
    case 'link-delay':
      return step.delayMs + step.jitterMs;
    case 'replication-delay':
      return step.delayMs;
    case 'client-skew':
      return Math.abs(step.offsetMs);
    case 'node-clock-jump':
      return step.jumpMs;
    default:
      return 0;
  }
}

export function scheduleSize(scenario: Scenario): ScheduleSize {
  const { groups } = groupSteps(scenario);
  let total = 0;
  let times = 0;
  for (const g of groups) {
    const faults = g.faults.map((i) => scenario.steps[i]!);
    const start = faults[0]!.at;
    for (const f of faults) {
      total += magnitude(f);
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
