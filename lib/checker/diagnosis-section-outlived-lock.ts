/**
 * Diagnosis: the job was still running after the hold's validity ended
 * (extensions counted; for the redlock module, its validityMs) and nobody
 * else took the lock meanwhile (if someone did, mutual exclusion says more).
 * Only with a known expiry, not for a hold its client released first, and
 * not when a pause already explains it.
 */
import type { DiagnosisLog } from './diagnoses';
import type { Hold, SectionAtExit } from './holds';
import type { HoldObserver, HoldsView } from './hold-observer';
import { client as clientValue, code, duration, type TimeWords } from './format';
import { words } from '../words';
import type { DiagnosisSpec } from './diagnosis-spec';

/** A critical section was still running after its lock's validity ended, and nobody else took the lock meanwhile. */
export const SECTION_OUTLIVED_LOCK = { kind: 'section-outlived-lock', grades: 'explains' } as const satisfies DiagnosisSpec;

export class SectionOutlivedLock implements HoldObserver {
  constructor(
    private readonly log: DiagnosisLog,
    private readonly at: TimeWords,
    private readonly holds: Pick<HoldsView, 'grantedToAnother'>,
  ) {}

  sectionExited(hold: Hold, section: SectionAtExit): boolean {
    if (hold.released || hold.pausedPastValidity || !Number.isFinite(hold.validUntil) || section.exitT <= hold.validUntil) return false;
    if (this.holds.grantedToAnother(hold, section.exitT)) return false;
    const { client, job } = section;
    const bareFrom = Math.max(hold.validUntil, section.enterT);
    const how =
      section.enterT >= hold.validUntil
        ? words('checker.diagnosis.enteredAfterValidity', {
            client: clientValue(client),
            job: code(job),
            enteredAt: this.at(section.enterT),
            resource: code(hold.resource),
            validUntil: this.at(hold.validUntil),
            until: this.at(section.exitT),
          })
        : words('checker.diagnosis.ranPastValidity', {
            client: clientValue(client),
            job: code(job),
            until: this.at(section.exitT),
            resource: code(hold.resource),
            validUntil: this.at(hold.validUntil),
          });
    this.log.add({
      kind: SECTION_OUTLIVED_LOCK.kind,
      check: 'mutual-exclusion',
      subject: `${hold.resource}|${job}`,
      words: words('checker.diagnosis.sectionOutlivedLock', { how: { words: how }, bare: duration(section.exitT - bareFrom) }),
      seqs: [hold.startSeq, section.enterSeq, section.exitSeq],
      window: { from: bareFrom, to: section.exitT },
      clients: [client],
    });
    return true;
  }
}
