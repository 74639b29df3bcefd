// Wrong: release() is a plain DEL; it never checks that the key still holds our token.
// If our lock expired during the slow upload and another worker took it, our
// DEL deletes that worker's lock; a third worker then takes the key while the
// second is still in its critical section (the late-release interleaving).
// Lesson 2 — safe release, a reference solution.
// Each worker sends its batch inside the lock (500 ms, well within the TTL),
// then uploads a report before releasing. The upload is slow today, so the
// lock expires before the release — and the release is a plain DEL.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:send-invoices';
const TTL_MS = 1000;

async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
  return ok === 'OK' ? token : null;
}

// Delete the lock and report whether there was one to delete.
async function release(key: string, token: string): Promise<boolean> {
  const deleted = await redis.del(key);
  return deleted === 1;
}

const giveUpAt = Date.now() + 5000;
let token: string | null = null;
while ((token = await acquire(KEY, TTL_MS)) === null) {
  if (Date.now() > giveUpAt) throw new Error('gave up waiting for the lock');
  await lab.sleep(40 + Math.floor(Math.random() * 20));
}
try {
  await lab.job('send-invoices').run(500); // the critical section
  await lab.sleep(700); // upload the report: outside the section, but still before the release
} finally {
  const mine = await release(KEY, token);
  lab.log(mine ? 'released my lock' : 'my lock had expired: nothing to release');
}
redis.disconnect();
