// Wrong: releases the lock before writing the done-record.
// Between the release and the write, a late worker can take the lock, read
// "not done" and run the report again: the record must be written while the
// lock is still held.

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
    if ((await lab.store.read(`report-done:${DAY}`)) !== null) {
      lab.log('already done today: skipping');
      return;
    }
    await lab.job('daily-report').run(300);
  } finally {
    await lock.release().catch(() => undefined);
  }
  await lab.store.write(`report-done:${DAY}`, `Client ${lab.client}`);
}
