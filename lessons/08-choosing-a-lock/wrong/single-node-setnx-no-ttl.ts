// Wrong: a single-node SET NX without a TTL instead of the Redlock lock.
// Node 1 alone decides: while it is down nobody can lock and the report does not
// run; and a worker that crashes holding the key (say inside the report) leaves
// it forever, so no worker runs the report that day.

// The lock keeps two workers from running the report at the same moment
// (efficiency); the "done" record keeps a late worker from running it again
// after the first one released (correctness of "once a day").
async function runDailyReportOnce(): Promise<void> {
  const lockKey = `lock:daily-report:${DAY}`;
  const ok = await single.set(lockKey, randomUUID(), 'NX').catch(() => null);
  if (ok !== 'OK') {
    lab.log('another worker holds the lock: skipping today');
    return;
  }
  try {
    if ((await lab.store.read(`report-done:${DAY}`)) !== null) {
      lab.log('already done today: skipping');
      return;
    }
    await lab.job('daily-report').run(300);
    await lab.store.write(`report-done:${DAY}`, `Client ${lab.client}`);
  } finally {
    await single.del(lockKey).catch(() => undefined);
  }
}
