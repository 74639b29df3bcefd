/**
 * A schedule in a learner's words, one line per fault with its timing and its recovery: "pause Client 2 for
 * 1.2 s, 300 ms after Client 1 is granted the lock", "kill Node 3 at 400 ms, then restart Node 3 1.2 s later".
 * Said once, as words (Explore's answer in the page's language); the English lines and the description a
 * schedule's scenario carries are `english()` of them. The steps and triggers are lib/scenario-words.ts's.
 */
import type { Scenario, ScenarioStep } from '../scenario';
import { english } from '../checker/said';
import { stepWords, timingWords } from '../scenario-words';
import { words, type WordValue, type Words } from '../words';
import { groupSteps, type FaultGroup } from './groups';

const phrase = (w: Words): WordValue => ({ words: w });

/** "at 400 ms", or "300 ms after Client 1 …" (a trigger's timing follows a comma). */
function lineWords(fault: Words, step: ScenarioStep): Words {
  return words('runNotes.schedule.line', { fault: phrase(fault), triggered: step.when ? 'yes' : 'no', timing: phrase(timingWords(step.when, step.at)) });
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

/** A schedule's lines, as words: one per fault (with its recoveries), and one per recovery that undoes none. */
export function describeScheduleWords(scenario: Scenario): Words[] {
  const { groups, orphans } = groupSteps(scenario);
  const lines = groups.map((g) => ({ first: Math.min(...g.faults), said: groupLine(scenario, g) }));
  for (const i of orphans) lines.push({ first: i, said: lineWords(recoveryWords([scenario.steps[i]!]), scenario.steps[i]!) });
  return lines.sort((a, b) => a.first - b.first).map((l) => l.said);
}

/**
 * A line's English, remembered: the shrinker describes each of a schedule's candidates, which share most of their
 * lines, and a rendering costs more than its key. Bounded: cleared when full.
 */
const englishLines = new Map<string, string>();
function englishLine(line: Words): string {
  const key = JSON.stringify(line);
  let text = englishLines.get(key);
  if (text === undefined) {
    if (englishLines.size >= 5_000) englishLines.clear();
    englishLines.set(key, (text = english(line)));
  }
  return text;
}

/** A schedule's lines in English (a grading step's title, Explore's English answer). */
export function describeSchedule(scenario: Scenario): string[] {
  return describeScheduleWords(scenario).map(englishLine);
}

/** The description a schedule's scenario carries (the picker's tooltip, the run's header), within its 2,000 characters. */
export function scheduleDescription(scenario: Scenario): string {
  const lines = describeSchedule(scenario);
  if (lines.length === 0) return 'No fault.';
  const text = `${lines.length} fault${lines.length === 1 ? '' : 's'}: ${lines.join('; ')}.`;
  return text.length <= 2_000 ? text : `${text.slice(0, 1_999)}…`;
}
