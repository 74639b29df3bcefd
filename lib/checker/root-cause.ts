/**
 * Which diagnosis is the root cause of a verdict: the one its headline names
 * and a lesson's "Break it" is judged by. Diagnoses are logged in order of
 * proof, but a consequence can be proven before its cause (lesson 1's plain
 * DEL deletes a lock the check-then-set race let another client take), so
 * they are ranked by kind: a lock taken or released wrongly explains what the
 * infrastructure then did, which explains what timing did. Ties go to the
 * earliest proof.
 */
import type { Diagnosis, DiagnosisKind, Verdict } from './types';

export const ROOT_CAUSE_ORDER: readonly DiagnosisKind[] = [
  // The lock is wrong whatever the timing.
  'check-then-set-race',
  'quorum-not-majority',
  'acquired-without-quorum',
  'lock-without-ttl-never-frees',
  'job-without-lock',
  'release-deleted-foreign-lock',
  // A node lost a lock the code took correctly.
  'failover-lost-lock',
  'restart-without-persistence',
  'clock-jump-expired-lock',
  // Timing: the lock ran out under its holder.
  'renewal-failed-mid-job',
  'ttl-shorter-than-job',
  'pause-beyond-validity',
  'section-outlived-lock',
];

const RANK = new Map(ROOT_CAUSE_ORDER.map((kind, i) => [kind, i]));

/**
 * The diagnosis that explains why the verdict is not `held`, or null (a held verdict, or nothing diagnosed).
 * Only diagnoses of a check that did not hold count: one explaining a check that held caused nothing here.
 */
export function rootCause(verdict: Pick<Verdict, 'valid' | 'checks' | 'diagnoses'>): Diagnosis | null {
  if (verdict.valid === 'held') return null;
  let best: Diagnosis | null = null;
  for (const diagnosis of verdict.diagnoses) {
    const check = verdict.checks[diagnosis.check];
    if (check.applicable && check.valid === 'held') continue;
    if (!best || rank(diagnosis) < rank(best)) best = diagnosis;
  }
  return best;
}

function rank(diagnosis: Diagnosis): number {
  return RANK.get(diagnosis.kind) ?? ROOT_CAUSE_ORDER.length;
}
