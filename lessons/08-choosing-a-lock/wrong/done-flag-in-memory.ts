// Wrong: remembers that the report ran in a variable of the worker's own program, not in the shared store.
// The flag is this worker's memory only: a second worker that takes the lock after the first released it has its
// own flag, still false, and runs the report again. "Done today" must be where every worker reads it.

let reportDoneToday = false;

async function runDailyReportOnce(): Promise<void> {
  let lock;
  try {
    lock = await redlock.acquire([`lock:daily-report:${DAY}`], 5000);
  } catch {
    lab.log('another worker holds the lock: skipping today');
    return;
  }
  try {
    if (reportDoneToday) {
      lab.log('already done today: skipping');
      return;
    }
    await lab.job('daily-report').run(300);
    reportDoneToday = true;
  } finally {
    await lock.release().catch(() => undefined);
  }
}
