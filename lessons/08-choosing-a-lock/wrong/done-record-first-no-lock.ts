// Wrong: no lock: checks the done-record, writes it, then runs the report.
// The check and the write are two separate store calls: workers arriving
// together can all read "not done" before any of them writes, and all of them
// run the report.

// The "done" record, written before the report starts, keeps every other
// worker from running it again, so no lock is needed.
async function runDailyReportOnce(): Promise<void> {
  if ((await lab.store.read(`report-done:${DAY}`)) !== null) {
    lab.log('already done today: skipping');
    return;
  }
  await lab.store.write(`report-done:${DAY}`, `Client ${lab.client}`);
  await lab.job('daily-report').run(300);
}
