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
import { client as clientValue, code, duration, node as nodeValue, timeWords, type TimeWords } from './format';
import { words } from '../words';
import type { DiagnosisSpec } from './diagnosis-spec';

/** A node's clock jumped forward and expired a live lock on it early; that node then granted the lock to another client. */
export const CLOCK_JUMP_EXPIRED_LOCK = { kind: 'clock-jump-expired-lock', grades: 'explains' } as const satisfies DiagnosisSpec;

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
    const holder = clientValue(entry.setter ?? 0);
    this.log.add({
      kind: CLOCK_JUMP_EXPIRED_LOCK.kind,
      check: 'mutual-exclusion',
      subject: `${invoke.node}|${key}`,
      words: words('checker.diagnosis.clockJumpExpiredLock', {
        node: nodeValue(invoke.node),
        jump: duration(this.jumps.get(invoke.node) ?? 0),
        jumpedAt: this.at(lost.t),
        holder,
        key: code(key),
        early: duration(entry.expiresAt - lost.t),
        client: clientValue(invoke.client),
        grantedAt: this.at(done.t),
      }),
      seqs: [entry.setSeq, lost.seq, done.seq],
      window: { from: lost.t, to: done.t },
      clients: [entry.setter ?? invoke.client, invoke.client],
    });
  }
}
