/**
 * Diagnosis: a critical section outlived its lock's TTL and nothing extended
 * it: the work alone is longer than the TTL (pause time left out).
 */
import type { DiagnosisLog } from './diagnoses';
import type { Hold, SectionAtExit } from './holds';
import type { HoldObserver } from './hold-observer';
import { client as clientValue, code, duration } from './format';
import { words } from '../words';
import type { DiagnosisSpec } from './diagnosis-spec';

/** The lock's TTL is shorter than the critical section and nothing extends it. */
export const TTL_SHORTER_THAN_JOB = { kind: 'ttl-shorter-than-job', grades: 'explains' } as const satisfies DiagnosisSpec;

export class TtlShorterThanJob implements HoldObserver {
  constructor(private readonly log: DiagnosisLog) {}

  sectionExited(hold: Hold, section: SectionAtExit): boolean {
    if (typeof hold.ttlMs !== 'number' || hold.extensions > 0) return false;
    if (section.runningMs <= hold.ttlMs) return false;
    this.log.add({
      kind: TTL_SHORTER_THAN_JOB.kind,
      check: 'mutual-exclusion',
      // One cause (this TTL for this job), however many clients ran into it.
      subject: `${hold.resource}|${section.job}|${hold.ttlMs}`,
      words: words('checker.diagnosis.ttlShorterThanJob', {
        ttl: duration(hold.ttlMs),
        running: duration(section.runningMs),
        client: clientValue(section.client),
        job: code(section.job),
      }),
      seqs: [hold.startSeq, section.enterSeq, section.exitSeq],
      window: { from: hold.startT + hold.ttlMs, to: section.exitT },
      clients: [section.client],
    });
    return true;
  }
}
