/**
 * Diagnosis: the holder renewed (or tried to: a watchdog), a renewal failed,
 * and the job ran on past the lock's expiry: the TTL was not too short, the
 * renewals stopped getting through (lesson 3's "the extension fails").
 */
import type { Hold, SectionAtExit } from './holds';
import { SayingObserver, type HoldObserver } from './hold-observer';
import { client as clientValue, code } from './format';
import { words } from '../words';
import type { DiagnosisSpec } from './diagnosis-spec';

/** A holder's renewals failed (timed out, refused, or found another token), its lock expired, and its job ran on past it. */
export const RENEWAL_FAILED_MID_JOB = { kind: 'renewal-failed-mid-job', grades: 'explains' } as const satisfies DiagnosisSpec;

export class RenewalFailedMidJob extends SayingObserver implements HoldObserver {
  sectionExited(hold: Hold, section: SectionAtExit): boolean {
    if (hold.renewalFailedAt === null || hold.released || hold.pausedPastValidity || !Number.isFinite(hold.expiresAt)) return false;
    if (section.exitT <= hold.expiresAt || hold.renewalFailedAt > section.exitT) return false;
    const { client, job } = section;
    this.log.add({
      kind: RENEWAL_FAILED_MID_JOB.kind,
      check: 'mutual-exclusion',
      subject: `${hold.resource}|${job}`,
      words: words('checker.diagnosis.renewalFailed', {
        client: clientValue(client),
        resource: code(hold.resource),
        expiredAt: this.at(hold.expiresAt),
        job: code(job),
        until: this.at(section.exitT),
        failedAt: this.at(hold.renewalFailedAt),
      }),
      seqs: [hold.startSeq, section.enterSeq, section.exitSeq],
      window: { from: hold.expiresAt, to: section.exitT },
      clients: [client],
    });
    return true;
  }
}
