/**
 * A scenario's steps read as faults: each fault with the recovery steps that
 * undo it. A scenario carries no such links (lessons write plain steps), so
 * they are found by target and timing: node-kill ↔ node-restart of that node,
 * link-cut ↔ link-heal of that link, link-delay ↔ the delay of 0 that lifts it,
 * a client pause without a duration ↔ its client-resume, … — the first one not
 * yet taken, with the same trigger (or none), not before the fault. Cuts of one
 * client with one timing are one fault: a partition.
 */
import { isRecovery } from '../faults/catalogue';
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

/** A link-delay of 0 is how a delay is lifted (link-heal refuses a link that is not cut); likewise for replication. */
export function isRecoveryStep(step: ScenarioStep): boolean {
  if (step.action === 'link-delay') return step.delayMs === 0 && step.jitterMs === 0;
  if (step.action === 'replication-delay') return step.delayMs === 0;
  return isRecovery(step.action);
}

/** For a fault step, the key of the step that undoes it; undefined when nothing does (a crash, a skew, a self-ending pause). */
function undoneBy(step: ScenarioStep): string | undefined {
  switch (step.action) {
    case 'node-kill':
      return `restart:${step.node}`;
    case 'node-pause':
      return `resume-node:${step.node}`;
    case 'link-cut':
      return `heal:${step.client}:${step.node}`;
    case 'link-delay':
      return `undelay:${step.client}:${step.node}`;
    case 'replication-hold':
      return 'release';
    case 'replication-delay':
      return 'undelay-replication';
    case 'client-pause':
      return step.durationMs === undefined ? `resume-client:${step.client}` : undefined;
    default:
      return undefined;
  }
}

/** For a recovery step, the same key as the fault it undoes. */
function undoes(step: ScenarioStep): string | undefined {
  switch (step.action) {
    case 'node-restart':
      return `restart:${step.node}`;
    case 'node-resume':
      return `resume-node:${step.node}`;
    case 'link-heal':
      return `heal:${step.client}:${step.node}`;
    case 'link-delay':
      return `undelay:${step.client}:${step.node}`;
    case 'replication-release':
      return 'release';
    case 'replication-delay':
      return 'undelay-replication';
    case 'client-resume':
      return `resume-client:${step.client}`;
    default:
      return undefined;
  }
}

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
    const key = undoneBy(step);
    if (key === undefined) continue;
    const recovery = order.find(
      (j) => !claimed.has(j) && isRecoveryStep(steps[j]!) && undoes(steps[j]!) === key && timingKey(steps[j]!) === timingKey(step) && steps[j]!.at >= step.at,
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
