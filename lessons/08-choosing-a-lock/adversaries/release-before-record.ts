// The done-record must be written before the lock is given back: in between, another worker finds the lock free
// and the day not done.
const __runDailyReportOnce = __probe.fn('runDailyReportOnce', typeof runDailyReportOnce === 'undefined' ? undefined : runDailyReportOnce);
const __reports = __probe.countJobs('daily-report');
__probe.markLockReleases(typeof redlock === 'undefined' ? undefined : redlock);
if (__lab.client === 1) {
  await __probe.call('runDailyReportOnce', () => __runDailyReportOnce());
} else {
  // As a cron would, Client 2 tries again while the day is not done: one attempt that found the lock still
  // held (a release not yet everywhere on a busy machine) must not decide the check.
  await __probe.again(
    () => __probe.call('runDailyReportOnce', () => __runDailyReportOnce()),
    async () => __reports.done > 0 || (await __lab.store.read('report-done:2024-06-01')) !== null,
    2000,
  );
}
