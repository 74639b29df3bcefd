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
import { client as clientValue, code, duration, node as nodeValue, timeWords, type TimeWords } from './format';
import { words } from '../words';
import type { DiagnosisSpec } from './diagnosis-spec';

/** A failover promoted a replica that never received a live lock, and it granted that lock to another client. */
export const FAILOVER_LOST_LOCK = { kind: 'failover-lost-lock', grades: 'explains' } as const satisfies DiagnosisSpec;

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
    const holder = clientValue(entry.setter ?? 0);
    const master = nodeValue(this.replaced.get(invoke.node) ?? 0);
    this.log.add({
      kind: FAILOVER_LOST_LOCK.kind,
      check: 'mutual-exclusion',
      subject: `${invoke.node}|${key}`,
      words: words('checker.diagnosis.failoverLostLock', {
        node: nodeValue(invoke.node),
        promotedAt: this.at(lost.t),
        holder,
        key: code(key),
        master,
        takenAt: this.at(entry.setT),
        left: duration(entry.expiresAt - lost.t),
        client: clientValue(invoke.client),
        grantedAt: this.at(done.t),
      }),
      seqs: [entry.setSeq, lost.seq, done.seq],
      window: { from: lost.t, to: done.t },
      clients: [entry.setter ?? invoke.client, invoke.client],
    });
  }
}
