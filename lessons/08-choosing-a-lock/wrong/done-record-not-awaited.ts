// Wrong: writes the done-record without awaiting it: the lock is released while the write is still on its way.
// The store is remote: a worker that takes the freed lock in that moment reads no record, runs the report again,
// and the day has two reports. Await the done-record before the lock is given back.

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
    // Recording is fire-and-forget: nothing after it needs its answer.
    lab.store.write(`report-done:${DAY}`, `Client ${lab.client}`);
  } finally {
    await lock.release().catch(() => undefined);
  }
}
