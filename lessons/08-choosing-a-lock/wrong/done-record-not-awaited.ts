// Wrong: writes the done-record without awaiting it: the lock is released while the write is still on its way.
// The store is remote: a worker that takes the freed lock in that moment reads no record, runs the report again,
// and the day has two reports. Await the done-record before the lock is given back.
// Lesson 8 — choosing a lock, with numbers: a reference solution.
// Five workers fire the same daily report at once (the Arabic production write-up's cron
// story). Part 1 measures what a lock costs: acquire latency over one node and
// over five (Redlock). Part 2 runs the report — which must happen once a day.
import Redis from 'ioredis';
import Redlock from 'redlock';
import { randomUUID } from 'crypto';
import lab from 'lab';

const nodes = [1, 2, 3, 4, 5].map((i) => new Redis({ host: `redis-${i}.internal`, port: 6379, commandTimeout: 500 }));
for (const node of nodes) node.on('error', () => undefined);
const redlock = new Redlock(nodes, { driftFactor: 0.01, retryCount: 0 });
const single = nodes[0]!;
const DAY = '2024-06-01';

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

function summary(name: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const f = (p: number) => percentile(sorted, p).toFixed(2);
  return `${name}: P50 ${f(50)} ms · P95 ${f(95)} ms · P99 ${f(99)} ms (${samples.length} acquires)`;
}

// Part 1: measure. Each client uses its own key, so this is the cost of the
// lock itself, not of waiting for someone else. Paced to stay polite.
async function measure(rounds: number): Promise<void> {
  const oneNode: number[] = [];
  const fiveNodes: number[] = [];
  let failed = 0;
  let slow = 0;
  for (let i = 0; i < rounds; i++) {
    const key = `bench:${lab.client}`;
    let t = performance.now();
    const token = randomUUID();
    try {
      await single.set(key, token, 'PX', 1000, 'NX');
      oneNode.push(performance.now() - t);
      await single.del(key);
    } catch {
      // A command past its timeout on a busy node: a benchmark counts it, it does not crash the worker.
      slow++;
    }
    t = performance.now();
    try {
      const lock = await redlock.acquire([`${key}:redlock`], 1000);
      fiveNodes.push(performance.now() - t);
      await lock.release();
    } catch {
      // A slow node can make a single attempt miss its quorum: a benchmark counts that, it does not crash.
      failed++;
    }
    await lab.sleep(15);
  }
  // Every worker measures, so each acquire competes with the other workers' as it would in
  // production; only Client 1 prints its figures, so the console shows them once, not five times.
  if (lab.client !== 1) return;
  lab.log(summary('single node', oneNode) + (slow ? ` — ${slow} command(s) timed out` : ''));
  lab.log(summary('Redlock, 5 nodes', fiveNodes) + (failed ? ` — ${failed} attempt(s) missed the quorum` : ''));
  lab.log('the Arabic production write-up (Redlock, 5 nodes): P50 3.2 ms · P95 8.7 ms · P99 14.1 ms');
}

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

await measure(40);
await runDailyReportOnce();
await redlock.quit().catch(() => undefined);
