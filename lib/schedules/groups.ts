/**
 * A scenario's steps read as faults: each fault with the recovery steps that
 * undo it. A scenario carries no such links (lessons write plain steps), so
 * they are found by target and timing, by the pairing keys each fault's
 * catalogue entry gives (`undoneBy`, `undoes`): node-kill ↔ node-restart of that
 * node, link-delay ↔ the delay of 0 that lifts it, … — the first one not
 * yet taken, with the same trigger (or none), not before the fault. Cuts of one
 * client with one timing are one fault: a partition.
 */
import { isRecoveryStep, undoesKey, undoneByKey } from '../faults/catalogue';
import type { Scenario, ScenarioStep } from '../scenario';

export interface FaultGroup {
  /** Indices in `steps` of the fault's own steps: one, or a partition's cuts. */
  faults: number[];
  /** Indices of the steps that undo it. */
  recoveries: number[];
}

export interface StepGroups {
  groups: FaultGroup[];
  /** Recovery steps that undo no fault of the scenario (a lesson's resume of a pause at another timing, say). */
  orphans: number[];
}

export { isRecoveryStep };

export const timingKey = (step: ScenarioStep): string => JSON.stringify(step.when ?? null);

export function groupSteps(scenario: Scenario): StepGroups {
  const { steps } = scenario;
  // Time order (stable), so the first recovery after a fault is the one that undoes it.
  const order = steps.map((_, i) => i).sort((a, b) => steps[a]!.at - steps[b]!.at || a - b);
  const claimed = new Set<number>();
  const groups: FaultGroup[] = [];
  const partitions = new Map<string, FaultGroup>();
  for (const i of order) {
    const step = steps[i]!;
    if (isRecoveryStep(step)) continue;
    let group: FaultGroup | undefined;
    if (step.action === 'link-cut') {
      const key = `${step.client}|${step.at}|${timingKey(step)}`;
      group = partitions.get(key);
      if (!group) partitions.set(key, (group = { faults: [], recoveries: [] }));
      if (group.faults.length === 0) groups.push(group);
    } else {
      groups.push((group = { faults: [], recoveries: [] }));
    }
    group.faults.push(i);
    const key = undoneByKey(step);
    if (key === undefined) continue;
    const recovery = order.find(
      (j) => !claimed.has(j) && isRecoveryStep(steps[j]!) && undoesKey(steps[j]!) === key && timingKey(steps[j]!) === timingKey(step) && steps[j]!.at >= step.at,
    );
    if (recovery !== undefined) {
      claimed.add(recovery);
      group.recoveries.push(recovery);
    }
  }
  // In the order the scenario lists them (a generated schedule lists each fault with its recovery, in drawn order).
  groups.sort((a, b) => Math.min(...a.faults) - Math.min(...b.faults));
  const orphans = order.filter((i) => isRecoveryStep(steps[i]!) && !claimed.has(i)).sort((a, b) => a - b);
  return { groups, orphans };
}

/** Faults, not their recovery steps: a partition is one fault however many links it cuts. */
export function faultCount(scenario: Scenario): number {
  return groupSteps(scenario).groups.length;
}
