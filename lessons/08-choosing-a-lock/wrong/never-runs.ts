// Wrong: skips the report when the done-record is missing — the test is the wrong way round — so it never runs.
// No worker ever sends the daily report: the lock and the record keep it from running twice, and nothing makes it run once.

// The lock keeps two workers from running the report at the same moment
// (efficiency); the "done" record keeps a late worker from running it again
// after the first one released (correctness of "once a day").
async function runDailyReportOnce(): Promise<void> {
  let lock;
  try {
    lock = await redlock.acquire([`lock:daily-report:${DAY}`], 5000);
  } catch {
    lab.log('another worker holds the lock: skipping today');
    return;
  }
  try {
    if ((await lab.store.read(`report-done:${DAY}`)) === null) {
      lab.log('already done today: skipping');
      return;
    }
    await lab.job('daily-report').run(300);
    await lab.store.write(`report-done:${DAY}`, `Client ${lab.client}`);
  } finally {
    await lock.release().catch(() => undefined);
  }
}
