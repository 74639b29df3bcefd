// A done-record read outside the lock is a check-then-act: by the time the lock is free, the answer is stale.
const __runDailyReportOnce = __probe.fn('runDailyReportOnce', typeof runDailyReportOnce === 'undefined' ? undefined : runDailyReportOnce);
__probe.markStoreReads();
await __probe.call('runDailyReportOnce', () => __runDailyReportOnce());
