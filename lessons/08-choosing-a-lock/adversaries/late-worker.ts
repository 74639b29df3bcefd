// A worker that wakes up after the report ran and the lock was given back must find the day done.
const __runDailyReportOnce = __probe.fn('runDailyReportOnce', typeof runDailyReportOnce === 'undefined' ? undefined : runDailyReportOnce);
const __reports = __probe.countJobs('daily-report');
if (__lab.client === 1) {
  await __probe.call('runDailyReportOnce', () => __runDailyReportOnce());
  // Client 2 waits for this report: one that never ran is the answer now, not a run waiting out its wall clock.
  __probe.expect(__reports.done > 0, 'neverRan', { call: { code: 'runDailyReportOnce()' } });
} else {
  // As a cron would, it tries again while the day is not done: one attempt that misses its majority on a busy
  // machine must not decide the check.
  await __probe.again(
    () => __probe.call('runDailyReportOnce', () => __runDailyReportOnce()),
    async () => __reports.done > 0 || (await __lab.store.read('report-done:2024-06-01')) !== null,
    2000,
  );
}
