// "Exactly once" survives a crash only if the done-record says done after the report ran, and the lock frees itself.
const __runDailyReportOnce = __probe.fn('runDailyReportOnce', typeof runDailyReportOnce === 'undefined' ? undefined : runDailyReportOnce);
const __reports = __probe.countJobs('daily-report');
if (__lab.client === 1) {
  await __probe.call('runDailyReportOnce', () => __runDailyReportOnce());
} else {
  // The cron fires again a little later if today is not done: a busy node may cost one attempt its majority.
  await __probe.again(
    () => __probe.call('runDailyReportOnce', () => __runDailyReportOnce()),
    async () => __reports.done > 0 || (await __lab.store.read('report-done:2024-06-01')) !== null,
    6000,
  );
  const __record = await __lab.store.read('report-done:2024-06-01');
  __probe.expect(__reports.done === 1, 'neverCompleted', () => ({ record: __probe.show(__record) }));
}
