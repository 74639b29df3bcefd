/**
 * Live locks a node lost (a restart without persistence, a failover to a
 * replica that never received them, a clock jump that expired them early),
 * each waiting for the next write of its key on that node: if another client
 * wrote it while the first holder's lock should still have been there, the
 * node granted the same lock twice. Shared by the diagnoses of each way to lose one.
 */
import type { RedisCompleteEvent, RedisInvokeEvent } from '../history';
import type { KeyEntry } from './keyspace';
import type { LockSignals } from './lock-signals';

export interface ForgottenLock {
  /** The lock as it was before it was lost (its expiry the one it should have had). */
  entry: KeyEntry;
  /** The event that lost it. */
  seq: number;
  t: number;
}

export class ForgottenLocks {
  private readonly byNode = new Map<number, Map<string, ForgottenLock>>();

  constructor(private readonly locks: Pick<LockSignals, 'isLockKey'>) {}

  /** `node` lost these entries at `t`; only lock keys still live then are kept, and they replace what it lost before. */
  forget(node: number, entries: ReadonlyMap<string, KeyEntry>, seq: number, t: number): void {
    const forgotten = new Map<string, ForgottenLock>();
    for (const [key, entry] of entries) {
      if (entry.expiresAt > t && this.locks.isLockKey(key)) forgotten.set(key, { entry, seq, t });
    }
    this.byNode.set(node, forgotten);
  }

  /**
   * At a write of `key`: the lock the node had lost, when this is the first write of that key since and
   * another client's lock should still have been there. Only the first write after the loss can be the regrant.
   */
  regranted(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string): ForgottenLock | null {
    const lost = this.byNode.get(invoke.node)?.get(key);
    if (!lost) return null;
    this.byNode.get(invoke.node)?.delete(key);
    const { entry } = lost;
    if (entry.setter === null || entry.setter === invoke.client || entry.expiresAt <= done.t) return null;
    return lost;
  }
}
