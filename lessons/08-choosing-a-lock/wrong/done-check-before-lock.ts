// Wrong: reads the done-record before taking the lock (check-then-act outside the lock).
// Two workers can both read "not done"; one takes the lock, runs the report,
// writes the record and releases; the other then takes the lock and, having
// checked already, runs the report a second time.

// The "done" record, checked first, keeps a late worker from running it again;
// the lock keeps two workers from running the report at the same moment.
async function runDailyReportOnce(): Promise<void> {
  if ((await lab.store.read(`report-done:${DAY}`)) !== null) {
    lab.log('already done today: skipping');
    return;
  }
  let lock;
  try {
    lock = await redlock.acquire([`lock:daily-report:${DAY}`], 5000);
  } catch {
    lab.log('another worker holds the lock: skipping today');
    return;
  }
  try {
    await lab.job('daily-report').run(300);
    await lab.store.write(`report-done:${DAY}`, `Client ${lab.client}`);
  } finally {
    await lock.release().catch(() => undefined);
  }
}
