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
  const __giveUp = Date.now() + 2000;
  for (;;) {
    await __probe.call('runDailyReportOnce', () => __runDailyReportOnce());
    if (__reports.done > 0 || Date.now() > __giveUp) break;
    if ((await __lab.store.read('report-done:2024-06-01')) !== null) break;
    await __lab.sleep(200);
  }
}
