/**
 * Diagnosis: a failover promoted a replica that had never received a live
 * lock (replication is asynchronous), and the new master granted that lock to
 * another client while the first holder still had it — lesson 4.
 */
import type { NodeStateEvent, RedisCompleteEvent, RedisInvokeEvent } from '../history';
import type { DiagnosisLog } from './diagnoses';
import { ForgottenLocks } from './forgotten-locks';
import type { KeyEntry, KeyspaceObserver } from './keyspace';
import type { LockSignals } from './lock-signals';
import { clientLabel, formatDuration, nodeLabel, quote, timeWords, type TimeWords } from './format';

export class FailoverLostLock implements KeyspaceObserver {
  private readonly forgotten: ForgottenLocks;
  /** Per promoted node, the master it replaced. */
  private readonly replaced = new Map<number, number>();

  constructor(
    private readonly log: DiagnosisLog,
    locks: Pick<LockSignals, 'isLockKey'>,
    private readonly at: TimeWords = timeWords(),
  ) {
    this.forgotten = new ForgottenLocks(locks);
  }

  promoted(node: number, from: number, lost: ReadonlyMap<string, KeyEntry>, event: NodeStateEvent): void {
    this.replaced.set(node, from);
    this.forgotten.forget(node, lost, event.seq, event.t);
  }

  wrote(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string): void {
    const lost = this.forgotten.regranted(invoke, done, key);
    if (!lost) return;
    const { entry } = lost;
    const holder = clientLabel(entry.setter ?? 0);
    const master = nodeLabel(this.replaced.get(invoke.node) ?? 0);
    this.log.add({
      kind: 'failover-lost-lock',
      check: 'mutual-exclusion',
      subject: `${invoke.node}|${key}`,
      message:
        `${nodeLabel(invoke.node)} was promoted to master at ${this.at(lost.t)} without ${holder}'s lock ${quote(key)} ` +
        `(taken on ${master} at ${this.at(entry.setT)}, ${formatDuration(entry.expiresAt - lost.t)} left): replication is asynchronous and it had not arrived, ` +
        `so ${nodeLabel(invoke.node)} granted it to ${clientLabel(invoke.client)} at ${this.at(done.t)}. ` +
        `Count a lock only once the replica confirmed it (WAIT), and give it back when it did not.`,
      seqs: [entry.setSeq, lost.seq, done.seq],
      window: { from: lost.t, to: done.t },
      clients: [entry.setter ?? invoke.client, invoke.client],
    });
  }
}
