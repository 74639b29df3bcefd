/**
 * Whether a verdict shows what a scenario promises: a lesson's "Break it"
 * must be violated (with the diagnosis it teaches), its "Fix it" must hold.
 * Used by the grader, the fidelity run and the lesson tests alike.
 */
import { rootCause } from './root-cause';
import type { CheckName, DiagnosisKind, Validity, Verdict } from './types';

export interface VerdictExpectation {
  verdict: Validity;
  /** The check whose answer proves the point (e.g. liveness for a lock that never frees). */
  check?: CheckName;
  /**
   * The diagnosis the verdict must give as its root cause (the one its headline names): a break that shows the
   * lesson's bug only among other findings, or behind another cause, does not teach it.
   */
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
  if (expect.diagnosis) {
    const cause = rootCause(verdict);
    if (cause?.kind !== expect.diagnosis) {
      const found = verdict.diagnoses.map((d) => d.kind).join(', ') || 'none';
      return cause ? `the root cause named is "${cause.kind}", not "${expect.diagnosis}" (found: ${found})` : `no "${expect.diagnosis}" diagnosis (found: ${found})`;
    }
  }
  if (expect.savedByFencing && verdict.savedByFencing.count === 0) return 'no stale write was rejected by the fenced store';
  return null;
}
