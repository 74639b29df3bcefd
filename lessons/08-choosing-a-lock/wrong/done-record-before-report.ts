// Wrong: writes the done-record before running the report (inside the lock).
// If the report fails or the worker crashes in the middle of it, the day is
// already marked done and no other worker runs it: the report runs at most
// once, not exactly once (a crash of the first worker inside daily-report).

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
    await lab.store.write(`report-done:${DAY}`, `Client ${lab.client}`);
    await lab.job('daily-report').run(300);
  } finally {
    await lock.release().catch(() => undefined);
  }
}
