/**
 * A scenario step and its trigger as words (lib/words.ts), for what the run's console says of a step whose
 * moment never came. The English is the same sentence `describeStep` and `describeTrigger` write (a test
 * holds them together); the words let a page say it in its language. Zod-free and isomorphic: the sandbox's
 * workers say it too (server/sandbox/worker/armed-faults.ts).
 */
import type { FaultOp } from './faults/catalogue';
import type { FaultInput } from './faults/inputs';
import { FAULT_MESSAGE_KEYS } from './faults/message-keys';
import type { ScenarioStep, Trigger } from './scenario';
import type { WordValue, Words } from './words';

/** Words as data only: the sandbox's workers load this module, and rendering (lib/words.ts) stays out of them. */
const words = (key: string, values: Record<string, WordValue> = {}): Words => ({ key, values });

/** A figure as the scenario's file writes it (no grouping, no decimal change): a string, not an ICU number. */
const figure = (n: number): string => String(n);
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

/** A trigger in words: "Client 1 enters its job" (`describeTrigger`'s sentence). */
export function triggerWords(trigger: Trigger): Words {
  return words('runNotes.trigger.when', {
    moment: { words: moment(trigger) },
    hasSince: yes(trigger.since),
    sinceClient: yes(trigger.client !== undefined),
    since: trigger.since ?? '',
  });
}

type AnyFaultInput = Partial<Record<string, unknown>> & { client?: number; node?: number };

/** A fault in words: "kill Node 3" (`describeFault`'s phrase); `answering` says "the node that answered" for its node. */
export function faultWords<K extends FaultOp>(op: K, input: FaultInput<K>, answering = false): Words {
  const i = input as AnyFaultInput;
  const num = (name: string): number | undefined => (typeof i[name] === 'number' ? (i[name] as number) : undefined);
  const node: WordValue = answering ? { words: words('runNotes.step.answeringNode') } : { node: i.node ?? 0 };
  const client: WordValue = { client: i.client ?? 0 };
  const values: Record<string, WordValue> = { node, client };
  switch (op) {
    case 'node-restart':
      Object.assign(values, { hasDelay: yes(num('delayMs')), delay: figure(num('delayMs') ?? 0), hasPersistence: yes(i.persistence), persistence: String(i.persistence ?? '') });
      break;
    case 'node-clock-jump':
      values.jump = figure(num('jumpMs') ?? 0);
      break;
    case 'link-cut':
      values.mode = String(i.mode ?? '');
      break;
    case 'link-delay':
      Object.assign(values, { delay: figure(num('delayMs') ?? 0), hasJitter: yes(num('jitterMs')), jitter: figure(num('jitterMs') ?? 0) });
      break;
    case 'replication-delay':
      values.delay = figure(num('delayMs') ?? 0);
      break;
    case 'failover':
      Object.assign(values, { from: { node: 1 }, to: { node: 2 } });
      break;
    case 'client-pause':
      Object.assign(values, { hasDuration: yes(num('durationMs')), duration: figure(num('durationMs') ?? 0) });
      break;
    case 'client-skew':
      values.offset = figure(num('offsetMs') ?? 0);
      break;
  }
  return words(`runNotes.step.${FAULT_MESSAGE_KEYS[op]}`, values);
}

/** A scenario step in words ("kill the node that answered"), as `describeStep` says it. */
export function stepWords(step: ScenarioStep): Words {
  const { at: _at, when: _when, onAnsweringNode, action, ...input } = step;
  return faultWords(action, input as FaultInput<typeof action>, Boolean(onAnsweringNode) && 'node' in input);
}

/** What the run's console says of a step whose moment never came (`neverFiredText`'s sentence). */
export function neverFiredWords(step: Words, trigger: Trigger): Words {
  return words('runNotes.neverFired', { step: { words: step }, trigger: { words: triggerWords(trigger) } });
}
