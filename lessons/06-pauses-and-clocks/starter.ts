// Lesson 6 — pauses and clocks.
// Redlock over five nodes (the `redlock` library). Each worker takes the lock,
// renders this month's invoice PDF (slow, 500 ms), then sends it: the send is
// the critical section, and it records the invoice in the shared store.
import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';

const nodes = [1, 2, 3, 4, 5].map((i) => new Redis({ host: `redis-${i}.internal`, port: 6379, commandTimeout: 100 }));
for (const node of nodes) node.on('error', () => undefined);
const redlock = new Redlock(nodes, { driftFactor: 0.01, retryCount: 40, retryDelay: 100, retryJitter: 50 });

const TTL_MS = 2000;
const SEND_MS = 800;

// EXERCISE: the lock is only good until lock.expiration (a time on this
// client's clock, already shortened for drift). Return true only if the lock
// will still be valid when a step of `ms` milliseconds ends, with 100 ms to spare.
function safeToCommit(lock: { expiration: number }, ms: number): boolean {
  return true;
}

const lock = await redlock.acquire(['lock:invoice-2024-06'], TTL_MS);
try {
  await lab.sleep(500); // render the PDF (not yet a side effect)
  if (!safeToCommit(lock, SEND_MS)) {
    lab.log('the lock ran out while rendering: not sending');
  } else {
    await lab.job('send-invoice').run(SEND_MS);
    await lab.store.write('invoice-2024-06', `sent by Client ${lab.client}`);
  }
} finally {
  await lock.release().catch(() => undefined); // it may have expired already
}
await redlock.quit().catch(() => undefined);
