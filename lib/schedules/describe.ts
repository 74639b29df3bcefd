/**
 * A schedule in a learner's words, one line per fault with its timing and its
 * recovery: "pause Client 2 for 1.2 s, 300 ms after Client 1 is granted the
 * lock", "kill Node 3 at 400 ms, then restart Node 3 1.2 s later". The words
 * are the scenario's and the triggers' own (lib/scenario.ts, lib/triggers.ts),
 * so a schedule reads like the history lines its run writes.
 */
import { clientLabel, nodeLabel } from '../cluster';
import { formatDuration } from '../durations';
import { describeStep, describeTiming, type Scenario, type ScenarioStep } from '../scenario';
import { groupSteps, type FaultGroup } from './groups';

/** "at 400 ms" reads after a space; "300 ms after Client 1 …" after a comma. */
const timingWords = (step: ScenarioStep): string => `${step.when ? ', ' : ' '}${describeTiming(step.when, step.at)}`;

function faultWords(steps: ScenarioStep[]): string {
  const first = steps[0]!;
  if (steps.length > 1 && first.action === 'link-cut') {
    const nodes = steps.map((s) => (s.action === 'link-cut' ? nodeLabel(s.node) : '')).filter(Boolean);
    const list = nodes.length > 1 ? `${nodes.slice(0, -1).join(', ')} and ${nodes.at(-1)!}` : nodes[0]!;
    return `cut ${clientLabel(first.client)} off from ${list} (${first.mode})`;
  }
  if (first.action === 'client-pause' && first.durationMs !== undefined) {
    const { durationMs, ...rest } = first;
    return `${describeStep(rest)} for ${formatDuration(durationMs)}`;
  }
  return describeStep(first);
}

function recoveryWords(steps: ScenarioStep[]): string {
  const first = steps[0]!;
  if (steps.length > 1 && first.action === 'link-heal') return 'heal those links';
  if (first.action === 'link-delay') return `lift the delay on ${clientLabel(first.client)} → ${nodeLabel(first.node)}`;
  if (first.action === 'replication-delay') return 'lift the replication delay';
  return describeStep(first);
}

function groupLine(scenario: Scenario, group: FaultGroup): string {
  const faults = group.faults.map((i) => scenario.steps[i]!);
  const fault = faults[0]!;
  const line = `${faultWords(faults)}${timingWords(fault)}`;
  if (group.recoveries.length === 0) return line;
  const recoveries = group.recoveries.map((i) => scenario.steps[i]!);
  const later = Math.max(...recoveries.map((r) => r.at)) - fault.at;
  return `${line}, then ${recoveryWords(recoveries)} ${later ? `${formatDuration(later)} later` : 'at once'}`;
}

export function describeSchedule(scenario: Scenario): string[] {
  const { groups, orphans } = groupSteps(scenario);
  const lines = groups.map((g) => ({ first: Math.min(...g.faults), text: groupLine(scenario, g) }));
  // A recovery that undoes nothing of this scenario still happens: say so on its own line.
  for (const i of orphans) lines.push({ first: i, text: `${recoveryWords([scenario.steps[i]!])}${timingWords(scenario.steps[i]!)}` });
  return lines.sort((a, b) => a.first - b.first).map((l) => l.text);
}

/** The description a schedule's scenario carries (the picker's tooltip, the run's header), within its 2,000 characters. */
export function scheduleDescription(scenario: Scenario): string {
  const lines = describeSchedule(scenario);
  if (lines.length === 0) return 'No fault.';
  const text = `${lines.length} fault${lines.length === 1 ? '' : 's'}: ${lines.join('; ')}.`;
  return text.length <= 2_000 ? text : `${text.slice(0, 1_999)}…`;
}
