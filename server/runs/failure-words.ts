/**
 * A learner's Redis command that the lab's state failed, said in the learner's terms: what is wrong in the
 * lab (a node down or paused, a link cut or delayed, a failover), what the connection saw, the command and
 * the learner's line that sent it, and how often it was retried. ioredis's own sentence ("Reached the max
 * retries per request limit (which is 1)") names an option the learner never set; the program still receives
 * ioredis's error (its API), named at the end. English and words from one catalogue entry (runNotes.failure).
 */
import type { LinkView, NodeView } from '@/lib/cluster';
import { say } from '@/lib/checker/said';
import type { CommandFailure } from '@/lib/run';
import { words, type Said, type Words } from '@/lib/words';

/** What the lab looks like around the failed command, read when the failure is reported. */
export interface FailureScene {
  node: Pick<NodeView, 'state' | 'role'> | undefined;
  link: Pick<LinkView, 'cut' | 'delayMs'> | undefined;
}

function stateWords(f: CommandFailure, client: number, scene: FailureScene): Words {
  const node = { node: f.node };
  if (scene.node?.state === 'down') return words('runNotes.failure.state.down', { node });
  if (scene.node?.state === 'paused') return words('runNotes.failure.state.paused', { node });
  if (scene.link?.cut) return words('runNotes.failure.state.cut', { client: { client }, node });
  if (f.cause === 'readonly' || scene.node?.role === 'replica') return words('runNotes.failure.state.replica', { node });
  if (scene.link && scene.link.delayMs > 0) return words('runNotes.failure.state.delayed', { client: { client }, node, delay: { duration: scene.link.delayMs } });
  return words('runNotes.failure.state.unreachable', { node });
}

function causeWords(f: CommandFailure): Words {
  return f.cause === 'timeout' ? words('runNotes.failure.cause.timeout', { timeout: { duration: f.timeoutMs } }) : words(`runNotes.failure.cause.${f.cause}`);
}

/** The sentence for client `client`'s failed command at the learner's `line`. */
export function failureSaid(failure: CommandFailure, client: number, line: number, scene: FailureScene): Said {
  // The lab's link accepts and closes a connection to a node that is down; a real client would have been refused.
  const f = scene.node?.state === 'down' && failure.cause === 'lost' ? { ...failure, cause: 'refused' as const } : failure;
  const values = { state: { words: stateWords(f, client, scene) }, cause: { words: causeWords(f) }, command: f.command, line: String(line), error: f.error };
  // Retries matter when the connection could not be made or kept; a timeout or a refused write is not retried.
  const retried = (f.cause === 'refused' || f.cause === 'lost') && f.retries !== null;
  if (!retried) return say('runNotes.failure.sentence', values);
  return say('runNotes.failure.sentenceRetried', { ...values, retries: f.retries ?? 0, whose: { words: words(f.retriesSet ? 'runNotes.failure.whose.yours' : 'runNotes.failure.whose.default') } });
}
