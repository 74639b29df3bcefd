/**
 * Diagnosis: a lock key left without a TTL. Named when its holder ended
 * holding a lock no EXPIRE/PEXPIRE reached (SETNX, SET NX without PX), and
 * at once for a PERSIST on a held lock: no correct lock does that, and the
 * holder's end, whenever it comes, leaves the key forever.
 */
import type { Hold } from './holds';
import { SayingObserver, type EndSignal, type HoldObserver, type PersistSignal } from './hold-observer';
import { client as clientValue, code, ended } from './format';
import { words } from '../words';
import type { DiagnosisSpec } from './diagnosis-spec';

/** A lock key was left without a TTL (SETNX without a PEXPIRE, a PERSIST) and its holder died or could: the key never frees. */
export const LOCK_WITHOUT_TTL_NEVER_FREES = { kind: 'lock-without-ttl-never-frees', grades: 'fatal' } as const satisfies DiagnosisSpec;

export class LockWithoutTtlNeverFrees extends SayingObserver implements HoldObserver {
  holderEnded(hold: Hold, signal: EndSignal): void {
    if (hold.ttlMs !== null || hold.noTtlNamed) return;
    this.log.add({
      kind: LOCK_WITHOUT_TTL_NEVER_FREES.kind,
      check: 'liveness',
      subject: hold.resource,
      words: words('checker.diagnosis.lockWithoutTtlEnded', {
        client: clientValue(hold.client),
        ended: ended(signal.how),
        at: this.at(signal.t),
        resource: code(hold.resource),
        takenAt: this.at(hold.startT),
      }),
      seqs: [hold.startSeq, signal.seq],
      window: { from: hold.startT, to: signal.t },
      clients: [hold.client],
    });
  }

  persisted(hold: Hold, signal: PersistSignal): void {
    // Named now: the holder's end does not name it again.
    hold.noTtlNamed = true;
    this.log.add({
      kind: LOCK_WITHOUT_TTL_NEVER_FREES.kind,
      check: 'liveness',
      subject: hold.resource,
      words: words('checker.diagnosis.lockWithoutTtlPersist', {
        by: clientValue(signal.by),
        own: signal.by === hold.client ? 'yes' : 'no',
        holder: clientValue(hold.client),
        resource: code(hold.resource),
        at: this.at(signal.t),
      }),
      seqs: [hold.startSeq, signal.seq],
      window: { from: signal.t, to: signal.t },
      clients: [hold.client, signal.by],
    });
  }
}
