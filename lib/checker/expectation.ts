/**
 * Whether a verdict shows what a scenario promises: a lesson's "Break it"
 * must be violated (with the diagnosis it teaches), its "Fix it" must hold.
 * Used by the grader, the fidelity run and the lesson tests alike.
 */
import type { CheckName, DiagnosisKind, Validity, Verdict } from './types';

export interface VerdictExpectation {
  verdict: Validity;
  /** The check whose answer proves the point (e.g. liveness for a lock that never frees). */
  check?: CheckName;
  /** A diagnosis the verdict must name. */
  diagnosis?: DiagnosisKind;
  /** At least one stale write must have been rejected. */
  savedByFencing?: boolean;
}

/** Null when the verdict meets the expectation, else what is missing, in words. */
export function unmetExpectation(verdict: Verdict, expect: VerdictExpectation): string | null {
  if (verdict.valid !== expect.verdict) {
    // Which checks made it other than held, for the author reading a fidelity report.
    const checks = verdict.valid === 'held' ? [] : Object.values(verdict.checks).filter((c) => c.applicable && c.valid === verdict.valid);
    const which = checks.length > 0 ? ` (${checks.map((c) => c.check).join(', ')})` : '';
    return `the verdict is ${verdict.valid}${which}, not ${expect.verdict}`;
  }
  if (expect.check && verdict.checks[expect.check].valid !== expect.verdict)
    return `the ${expect.check} check says ${verdict.checks[expect.check].valid}, not ${expect.verdict}`;
  if (expect.diagnosis && !verdict.diagnoses.some((d) => d.kind === expect.diagnosis))
    return `no "${expect.diagnosis}" diagnosis (found: ${verdict.diagnoses.map((d) => d.kind).join(', ') || 'none'})`;
  if (expect.savedByFencing && verdict.savedByFencing.count === 0) return 'no stale write was rejected by the fenced store';
  return null;
}
