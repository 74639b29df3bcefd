/**
 * The Redis side of the checker, assembled: the keyspace model (keyspace.ts)
 * rebuilt from the commands in the history, the lock signals read off it
 * (lock-signals.ts) for code that does not use the `redlock` module, and the
 * diagnoses that watch it (diagnosis-*.ts).
 */
import type { HistoryEvent } from '../history';
import type { DiagnosisLog } from './diagnoses';
import { CheckThenSetRace } from './diagnosis-check-then-set-race';
import { ClockJumpExpiredLock } from './diagnosis-clock-jump-expired-lock';
import { FailoverLostLock } from './diagnosis-failover-lost-lock';
import { ReleaseDeletedForeignLock } from './diagnosis-release-deleted-foreign-lock';
import { RestartWithoutPersistence } from './diagnosis-restart-without-persistence';
import { Keyspace } from './keyspace';
import { LockSignals, type RawLockSignal } from './lock-signals';
import { timeWords, type TimeWords } from './format';

export class RedisModel {
  private readonly keyspace: Keyspace;
  private readonly signals: LockSignals;

  constructor(diagnoses: DiagnosisLog, extraLockKeys: readonly string[], at: TimeWords = timeWords()) {
    this.signals = new LockSignals(extraLockKeys);
    // Observers hear each report in this order, so diagnoses proven by one event are logged in this order,
    // which a verdict keeps (ties in proof, and the cap on how many are kept): change it and words may move.
    this.keyspace = new Keyspace([
      this.signals,
      new CheckThenSetRace(diagnoses),
      new ReleaseDeletedForeignLock(diagnoses, this.signals),
      new RestartWithoutPersistence(diagnoses, this.signals),
      new FailoverLostLock(diagnoses, this.signals, at),
      new ClockJumpExpiredLock(diagnoses, this.signals, at),
    ]);
  }

  addLockKey(key: string): void {
    this.signals.addLockKey(key);
  }

  isLockKey(key: string): boolean {
    return this.signals.isLockKey(key);
  }

  /** Invocations still waiting for a completion (indeterminate if the history is final). */
  pendingCount(): number {
    return this.keyspace.pendingCount();
  }

  /** Feeds one event; returns the lock signals it implies (usually none). */
  observe(event: HistoryEvent): readonly RawLockSignal[] {
    this.keyspace.observe(event);
    return this.signals.take();
  }
}
