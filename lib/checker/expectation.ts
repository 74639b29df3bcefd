/**
 * Whether a verdict shows what a scenario promises: a lesson's "Break it"
 * must be violated (with the diagnosis it teaches), its "Fix it" must hold.
 * Used by the grader, the fidelity run and the lesson tests alike.
 */
import { rootCause } from './root-cause';
import { say } from './said';
import { words, type Said, type WordValue } from '../words';
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

/** A check's name as an ICU select key (camelCase: a select option cannot hold a dash). */
function checkWords(check: CheckName): WordValue {
  return { words: words('judging.check', { check: check === 'mutual-exclusion' ? 'mutualExclusion' : check }) };
}

/** Diagnoses found, for the author: their kinds as the code names them, or "none". */
function foundWords(verdict: Verdict): WordValue {
  const kinds = verdict.diagnoses.map((d) => d.kind);
  return kinds.length > 0 ? { list: kinds } : { words: words('judging.unmet.none') };
}

/** Null when the verdict meets the expectation, else what is missing, in English and as data. */
export function unmetExpectationSaid(verdict: Verdict, expect: VerdictExpectation): Said | null {
  if (verdict.valid !== expect.verdict) {
    // Which checks made it other than held, for the author reading a fidelity report.
    const checks = verdict.valid === 'held' ? [] : Object.values(verdict.checks).filter((c) => c.applicable && c.valid === verdict.valid);
    return say('judging.unmet.verdict', {
      valid: verdict.valid,
      hasChecks: checks.length > 0 ? 'yes' : 'no',
      checks: { list: checks.map((c) => checkWords(c.check)) },
      expected: expect.verdict,
    });
  }
  if (expect.check && verdict.checks[expect.check].valid !== expect.verdict)
    return say('judging.unmet.check', { check: checkWords(expect.check), valid: verdict.checks[expect.check].valid, expected: expect.verdict });
  if (expect.diagnosis) {
    const cause = rootCause(verdict);
    if (cause?.kind !== expect.diagnosis) {
      return cause
        ? say('judging.unmet.rootCause', { cause: cause.kind, expected: expect.diagnosis, found: foundWords(verdict) })
        : say('judging.unmet.noDiagnosis', { expected: expect.diagnosis, found: foundWords(verdict) });
    }
  }
  if (expect.savedByFencing && verdict.savedByFencing.count === 0) return say('judging.unmet.noStaleRejected');
  return null;
}

/** Null when the verdict meets the expectation, else what is missing, in words (English). */
export function unmetExpectation(verdict: Verdict, expect: VerdictExpectation): string | null {
  return unmetExpectationSaid(verdict, expect)?.message ?? null;
}
