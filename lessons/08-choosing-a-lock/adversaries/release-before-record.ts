// The done-record must be written before the lock is given back: in between, another worker finds the lock free
// and the day not done.
const __runDailyReportOnce = __probe.fn('runDailyReportOnce', typeof runDailyReportOnce === 'undefined' ? undefined : runDailyReportOnce);
__probe.countJobs('daily-report');
await __probe.call('runDailyReportOnce', () => __runDailyReportOnce());
