/**
 * Which diagnosis is the root cause of a verdict: the one its headline names
 * and a lesson's "Break it" is judged by. Diagnoses are logged in order of
 * proof, but a consequence can be proven before its cause (lesson 1's plain
 * DEL deletes a lock the check-then-set race let another client take), so
 * they are ranked by kind: a lock taken or released wrongly explains what the
 * infrastructure then did, which explains what timing did. Ties go to the
 * earliest proof.
 */
import { DIAGNOSIS_KINDS } from './diagnosis-catalogue';
import type { Diagnosis, DiagnosisKind, Verdict } from './types';

/** The kinds by rank (diagnosis-catalogue.ts keeps them in this order). */
export const ROOT_CAUSE_ORDER: readonly DiagnosisKind[] = DIAGNOSIS_KINDS;

const RANK = new Map(ROOT_CAUSE_ORDER.map((kind, i) => [kind, i]));

/**
 * The diagnosis that explains why the verdict is not `held`, or null (a held verdict, or nothing diagnosed).
 * One about a check that did not hold comes before one about a check that held; a diagnosis is filed under the
 * check it usually explains, but a stale pause can break fencing with no overlap (lesson 6's GC pause before
 * the job), and it is still the cause.
 */
export function rootCause(verdict: Pick<Verdict, 'valid' | 'checks' | 'diagnoses'>): Diagnosis | null {
  if (verdict.valid === 'held') return null;
  let best: Diagnosis | null = null;
  for (const diagnosis of verdict.diagnoses) {
    if (!best || rank(verdict, diagnosis) < rank(verdict, best)) best = diagnosis;
  }
  return best;
}

function rank(verdict: Pick<Verdict, 'checks'>, diagnosis: Diagnosis): number {
  const check = verdict.checks[diagnosis.check];
  const held = check.applicable && check.valid === 'held' ? ROOT_CAUSE_ORDER.length + 1 : 0;
  return held + (RANK.get(diagnosis.kind) ?? ROOT_CAUSE_ORDER.length);
}
