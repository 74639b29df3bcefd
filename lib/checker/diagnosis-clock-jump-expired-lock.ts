/**
 * Diagnosis: a node's clock jumped forward and expired a live lock on it
 * early; the node then granted that lock to another client while the first
 * holder's lock, by every other clock, was still valid — lesson 6.
 */
import type { NemesisEvent, RedisCompleteEvent, RedisInvokeEvent } from '../history';
import type { DiagnosisLog } from './diagnoses';
import { ForgottenLocks } from './forgotten-locks';
import type { KeyEntry, KeyspaceObserver } from './keyspace';
import type { LockSignals } from './lock-signals';
import { clientLabel, formatDuration, nodeLabel, quote, timeWords, type TimeWords } from './format';

export class ClockJumpExpiredLock implements KeyspaceObserver {
  private readonly forgotten: ForgottenLocks;
  private readonly jumps = new Map<number, number>();

  constructor(
    private readonly log: DiagnosisLog,
    locks: Pick<LockSignals, 'isLockKey'>,
    private readonly at: TimeWords = timeWords(),
  ) {
    this.forgotten = new ForgottenLocks(locks);
  }

  clockJumped(node: number, expired: ReadonlyMap<string, KeyEntry>, event: NemesisEvent): void {
    const jump = event.args['jumpMs'];
    this.jumps.set(node, typeof jump === 'number' ? jump : 0);
    this.forgotten.forget(node, expired, event.seq, event.t);
  }

  wrote(invoke: RedisInvokeEvent, done: RedisCompleteEvent, key: string): void {
    const lost = this.forgotten.regranted(invoke, done, key);
    if (!lost) return;
    const { entry } = lost;
    const holder = clientLabel(entry.setter ?? 0);
    this.log.add({
      kind: 'clock-jump-expired-lock',
      check: 'mutual-exclusion',
      subject: `${invoke.node}|${key}`,
      message:
        `${nodeLabel(invoke.node)}'s clock jumped ${formatDuration(this.jumps.get(invoke.node) ?? 0)} forward at ${this.at(lost.t)}, which expired ${holder}'s lock ${quote(key)} on it ` +
        `${formatDuration(entry.expiresAt - lost.t)} early; ${nodeLabel(invoke.node)} then granted it to ${clientLabel(invoke.client)} at ${this.at(done.t)}, ` +
        `while ${holder}'s own clock said its lock was still valid. No check on the holder's clock can see this; fencing tokens (lesson 7) make the resource refuse the older holder.`,
      seqs: [entry.setSeq, lost.seq, done.seq],
      window: { from: lost.t, to: done.t },
      clients: [entry.setter ?? invoke.client, invoke.client],
    });
  }
}
