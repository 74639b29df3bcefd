/** The safety checker: pure, isomorphic (no Node imports), history → verdict. */
export { check } from './check';
export { IncrementalChecker, DEFAULT_CHECKER_OPTIONS } from './incremental';
export { mergeValidity } from './validity';
export { unmetExpectation, unmetExpectationSaid, type VerdictExpectation } from './expectation';
export { rootCause, ROOT_CAUSE_ORDER } from './root-cause';
export { DIAGNOSIS_KINDS, FATAL_DIAGNOSES, MECHANISM_DIAGNOSES } from './diagnosis-catalogue';
export { formatDuration, formatTime, timeWords, type TimeWords } from './format';
export { CHECK_NAMES } from './types';
export type {
  CheckName,
  CheckResult,
  CheckerOptions,
  CounterExample,
  Diagnosis,
  DiagnosisKind,
  JobStats,
  SavedByFencing,
  TimeWindow,
  Validity,
  Verdict,
  VerdictOptions,
  VerdictStats,
} from './types';
