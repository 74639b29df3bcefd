/**
 * A schedule as its run played it. A schedule drawn at random may aim a fault at a moment that never comes
 * in the run ("after Client 2 enters its job for the 3rd time", when each client runs its job twice): such a
 * step never fired, and a counter-example must not tell it as part of what broke safety. So the lines shown
 * are made from the steps that fired in that run, read from its history with the scenario runner's own
 * trigger counting (lib/triggers.ts), and a fault that never fired goes with the recovery that undoes it.
 */
import type { HistoryEvent } from '../history';
import type { Scenario } from '../scenario';
import { TriggerWatch } from '../triggers';
import { groupSteps } from './groups';

/** The scenario without the steps whose trigger never happened in `history` (the run's own events, in order). */
export function firedSteps(scenario: Scenario, history: readonly HistoryEvent[]): Scenario {
  const watch = new TriggerWatch<number>();
  scenario.steps.forEach((step, i) => {
    if (step.when) watch.add(i, step.when, step.at);
  });
  const fired = new Set<number>(scenario.steps.flatMap((step, i) => (step.when ? [] : [i])));
  for (const event of history) {
    if (watch.size === 0) break;
    for (const due of watch.observe(event)) fired.add(due.item);
  }
  const dropped = new Set<number>(scenario.steps.flatMap((_, i) => (fired.has(i) ? [] : [i])));
  if (dropped.size === 0) return scenario;
  // A fault that never fired leaves its recovery undoing nothing: it goes too.
  for (const group of groupSteps(scenario).groups) if (group.faults.every((i) => dropped.has(i))) for (const r of group.recoveries) dropped.add(r);
  return { ...scenario, steps: scenario.steps.filter((_, i) => !dropped.has(i)) };
}
