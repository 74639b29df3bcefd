// The done-record must be stored — the store's answer awaited — before the lock is given back. Here the store is slow
// to take Client 1's writes (600 ms), and Client 2 arrives the moment Client 1's lock is released: a record still on
// its way is not there for Client 2 to read, and the report runs twice.
const __runDailyReportOnce = __probe.fn('runDailyReportOnce', typeof runDailyReportOnce === 'undefined' ? undefined : runDailyReportOnce);
const __reports = __probe.countJobs('daily-report');
__probe.markLockReleases(typeof redlock === 'undefined' ? undefined : redlock);
if (__lab.client === 1) {
  const __write = __lab.store.write;
  __lab.store.write = async (...__args) => {
    await __lab.sleep(600);
    return __write(...__args);
  };
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
