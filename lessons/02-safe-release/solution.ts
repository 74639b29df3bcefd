// Lesson 2 — safe release, a reference solution.
// Each worker sends its batch inside the lock (500 ms, well within the TTL),
// then uploads a report before releasing. The upload is slow today, so the
// lock expires before the release — so the release deletes the key only if it
// still holds our token, in one script.
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

// Compare and delete in one Lua script: Redis runs a script without
// interleaving other commands, so nobody can take the key between the two.
const RELEASE = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
else
  return 0
end`;

async function release(key: string, token: string): Promise<boolean> {
  const deleted = await redis.eval(RELEASE, 1, key, token);
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
