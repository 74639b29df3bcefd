// Turning the test runners' JSON reports into passed / failed counts.
import { readFileSync } from 'node:fs';

function readReport(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Vitest's JSON report (Jest's format). A test file that fails to load, or a
 * failing beforeAll/afterAll, fails its file without failing any test: such a
 * file counts as one failure so the total cannot read "0 failed".
 */
export function countVitest(report) {
  if (!report) return undefined;
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + brokenFiles,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

/**
 * Playwright's JSON report. "flaky" tests passed on a retry; top-level errors
 * (no tests found, web server failed to start, a config error) fail the run
 * without failing a test, so each counts as one failure.
 */
export function countPlaywright(report) {
  if (!report?.stats) return undefined;
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats;
  return { passed: expected + flaky, failed: unexpected + (report.errors ?? []).length, skipped };
}

/**
 * Counts for one runner from its report and exit code. A runner that failed
 * without a report, or without a counted failure, still counts as one failure:
 * a non-zero exit must never be summed away.
 */
export function countRun(countReport, reportFile, outcome) {
  const counts = countReport(readReport(reportFile)) ?? { passed: 0, failed: 0, skipped: 0 };
  const exitedBadly = outcome.signal !== null || outcome.code !== 0;
  if (exitedBadly && counts.failed === 0) return { ...counts, failed: 1, note: 'exited with an error but reported no failing test' };
  return counts;
}

/**
 * The slowest test files of a vitest report, as "12.3 s  tests/…": printed after the run so the
 * suite's time (it must stay well under 20 minutes on two cores) is watched where it grows.
 */
export function slowestVitestFiles(reportFile, count = 8) {
  const report = readReport(reportFile);
  const files = (report?.testResults ?? [])
    .filter((file) => Number.isFinite(file.startTime) && Number.isFinite(file.endTime))
    .map((file) => ({ name: String(file.name ?? '?'), ms: file.endTime - file.startTime }));
  return files
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((file) => `${(file.ms / 1000).toFixed(1).padStart(6)} s  ${file.name.replace(`${process.cwd()}/`, '')}`);
}
