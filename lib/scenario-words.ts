/**
 * A scenario step, its timing and its trigger as words (lib/words.ts): the history's scenario line, what the
 * run's console says of a step whose moment never came, a schedule's lines. The only place they are written:
 * their English is `english()` of these words (lib/checker/said.ts), from the same catalogue as every
 * language's. Zod-free and isomorphic: the sandbox's workers say it too (server/sandbox/worker/armed-faults.ts).
 */
import { faultKey, faultValues, type FaultOp, type FaultStep } from './faults/catalogue';
import type { FaultInput } from './faults/inputs';
import type { ScenarioStep, Trigger } from './scenario';
import type { WordValue, Words } from './words';

const words = (key: string, values: Record<string, WordValue> = {}): Words => ({ key, values });

const yes = (b: unknown): 'yes' | 'no' => (b ? 'yes' : 'no');

/** Who a trigger waits for: a client by number, or any client. */
function who(trigger: Trigger): Record<string, WordValue> {
  return trigger.client === undefined ? { hasClient: 'no', client: '' } : { hasClient: 'yes', client: { client: trigger.client } };
}

function moment(trigger: Trigger): Words {
  const base = { ...who(trigger), nth: trigger.nth };
  switch (trigger.on) {
    case 'client-start':
      return words('runNotes.trigger.clientStart', base);
    case 'lock-acquired':
      return words('runNotes.trigger.lockAcquired', base);
    case 'job-enter':
    case 'job-exit':
      return words(`runNotes.trigger.${trigger.on === 'job-enter' ? 'jobEnter' : 'jobExit'}`, { ...base, hasJob: yes(trigger.job), job: trigger.job ?? '' });
    case 'command-answered':
      return words('runNotes.trigger.commandAnswered', {
        ...base,
        anyCommand: yes(trigger.command === '*'),
        command: trigger.command.toUpperCase(),
        hasKey: yes(trigger.key),
        key: trigger.key ?? '',
        hasReply: yes(trigger.reply),
        reply: trigger.reply ?? '',
        hasNode: yes(trigger.node),
        node: trigger.node ? { node: trigger.node } : '',
      });
    case 'log':
      return words('runNotes.trigger.log', { ...base, text: trigger.text });
  }
}

/** A trigger in words: "Client 1 enters its job". */
export function triggerWords(trigger: Trigger): Words {
  return words('runNotes.trigger.when', {
    moment: { words: moment(trigger) },
    hasSince: yes(trigger.since),
    sinceClient: yes(trigger.client !== undefined),
    since: trigger.since ?? '',
  });
}

/** A fault in words: "kill Node 3"; `answering` says "the node that answered" for its node. */
export function faultWords<K extends FaultOp>(op: K, input: FaultInput<K>, answering = false): Words {
  const i = input as { node?: number; client?: number };
  const node: WordValue = answering ? { words: words('runNotes.step.answeringNode') } : { node: i.node ?? 0 };
  const values: Record<string, WordValue> = { node, client: { client: i.client ?? 0 }, ...faultValues({ ...input, action: op } as FaultStep) };
  return words(`runNotes.step.${faultKey(op)}`, values);
}

/** A scenario step in words: "kill Node 3", "kill the node that answered" (before its trigger names the node). */
export function stepWords(step: ScenarioStep): Words {
  const { at: _at, when: _when, onAnsweringNode, action, ...input } = step;
  return faultWords(action, input as FaultInput<typeof action>, Boolean(onAnsweringNode) && 'node' in input);
}

/** What the run's console says of a step whose moment never came. */
export function neverFiredWords(step: Words, trigger: Trigger): Words {
  return words('runNotes.neverFired', { step: { words: step }, trigger: { words: triggerWords(trigger) } });
}

/** When a step fires: "at 400 ms", "300 ms after Client 1 enters its job", "as soon as Client 1 starts". */
export function timingWords(when: Trigger | undefined, at: number): Words {
  if (!when) return words('runNotes.schedule.at', { at: String(at) });
  return words('runNotes.schedule.after', { hasAt: at ? 'yes' : 'no', at: String(at), trigger: { words: triggerWords(when) } });
}

/** A step with when it fired, for its history line: "pause Client 1 (300 ms after Client 1 is granted the lock)". */
export function scheduledStepWords(step: ScenarioStep, at: number): Words {
  if (!step.when) return stepWords(step);
  return words('runNotes.scheduled', { step: { words: stepWords(step) }, timing: { words: timingWords(step.when, at) } });
}
