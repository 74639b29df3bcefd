// Wrong: takes the Redlock lock but keeps no done-record, so nothing remembers that the report ran.
// The lock only stops two workers running at the same moment: a worker whose
// measurement ends after the first one released its lock acquires it too and
// runs the report again (the five workers reach this point at different times).

// The lock keeps two workers from running the report at the same moment,
// so the report runs once.
async function runDailyReportOnce(): Promise<void> {
  let lock;
  try {
    lock = await redlock.acquire([`lock:daily-report:${DAY}`], 5000);
  } catch {
    lab.log('another worker holds the lock: skipping today');
    return;
  }
  try {
    await lab.job('daily-report').run(300);
  } finally {
    await lock.release().catch(() => undefined);
  }
}
