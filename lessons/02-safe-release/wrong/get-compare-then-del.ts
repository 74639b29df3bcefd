// Wrong: GET, compare the token in the client, then DEL: two commands, not one script.
// The lock can expire and pass to another worker between our GET and our DEL:
// the GET still saw our token, so the DEL deletes the new holder's lock and a
// third worker can enter beside it (an expiry right after our GET shows it).
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

// Compare, then delete: remove the key only if it still holds our token.
async function release(key: string, token: string): Promise<boolean> {
  const holder = await redis.get(key);
  if (holder !== token) return false;
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
