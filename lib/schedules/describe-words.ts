/**
 * A schedule's lines (describe.ts) as words, so Explore's answer reads in the page's language: the same
 * structure and the same English (a test holds the two together), with the steps and triggers said by
 * lib/scenario-words.ts.
 */
import type { Scenario, ScenarioStep } from '../scenario';
import { stepWords, triggerWords } from '../scenario-words';
import { words, type WordValue, type Words } from '../words';
import { groupSteps, type FaultGroup } from './groups';

const phrase = (w: Words): WordValue => ({ words: w });

/** "at 400 ms", or "300 ms after Client 1 …" (a trigger's timing follows a comma). */
function lineWords(fault: Words, step: ScenarioStep): Words {
  const timing = step.when
    ? words('runNotes.schedule.after', { hasAt: step.at ? 'yes' : 'no', at: String(step.at), trigger: phrase(triggerWords(step.when)) })
    : words('runNotes.schedule.at', { at: String(step.at) });
  return words('runNotes.schedule.line', { fault: phrase(fault), triggered: step.when ? 'yes' : 'no', timing: phrase(timing) });
}

function faultWords(steps: ScenarioStep[]): Words {
  const first = steps[0]!;
  if (steps.length > 1 && first.action === 'link-cut') {
    const nodes: WordValue[] = steps.flatMap((s) => (s.action === 'link-cut' ? [{ node: s.node }] : []));
    const list = nodes.length > 1 ? phrase(words('runNotes.schedule.listLast', { first: { list: nodes.slice(0, -1) }, last: nodes.at(-1)! })) : nodes[0]!;
    return words('runNotes.schedule.cutOff', { client: { client: first.client }, nodes: list, mode: first.mode });
  }
  if (first.action === 'client-pause' && first.durationMs !== undefined) {
    const { durationMs, ...rest } = first;
    return words('runNotes.schedule.for', { step: phrase(stepWords(rest)), duration: { duration: durationMs } });
  }
  return stepWords(first);
}

function recoveryWords(steps: ScenarioStep[]): Words {
  const first = steps[0]!;
  if (steps.length > 1 && first.action === 'link-heal') return words('runNotes.schedule.healThose');
  if (first.action === 'link-delay') return words('runNotes.schedule.liftDelay', { client: { client: first.client }, node: { node: first.node } });
  if (first.action === 'replication-delay') return words('runNotes.schedule.liftReplicationDelay');
  return stepWords(first);
}

function groupLine(scenario: Scenario, group: FaultGroup): Words {
  const faults = group.faults.map((i) => scenario.steps[i]!);
  const fault = faults[0]!;
  const line = lineWords(faultWords(faults), fault);
  if (group.recoveries.length === 0) return line;
  const recoveries = group.recoveries.map((i) => scenario.steps[i]!);
  const later = Math.max(...recoveries.map((r) => r.at)) - fault.at;
  return words('runNotes.schedule.then', { line: phrase(line), recovery: phrase(recoveryWords(recoveries)), hasLater: later ? 'yes' : 'no', later: { duration: later } });
}

/** `describeSchedule`'s lines, as words. */
export function describeScheduleWords(scenario: Scenario): Words[] {
  const { groups, orphans } = groupSteps(scenario);
  const lines = groups.map((g) => ({ first: Math.min(...g.faults), said: groupLine(scenario, g) }));
  for (const i of orphans) lines.push({ first: i, said: lineWords(recoveryWords([scenario.steps[i]!]), scenario.steps[i]!) });
  return lines.sort((a, b) => a.first - b.first).map((l) => l.said);
}
