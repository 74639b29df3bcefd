// Wrong: GET to see whether the lock is free, then SET … PX without NX (check-then-set).
// The check and the take are two commands: two workers can both GET null, then
// both SET, and both believe they hold the lock; the TTL does not help, the
// second SET simply overwrites the first holder's token.
// Lesson 1 — the naive lock, fixed: check that it is free, then SET … PX.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:send-invoices';
const TTL_MS = 1000; // how long the lock should live if its holder dies

// First check that nobody holds the lock, then take it; PX makes the key
// expire if we die holding it.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const holder = await redis.get(key);
  if (holder !== null) return null;
  await redis.set(key, token, 'PX', ttlMs);
  return token;
}

// Still a plain DEL: lesson 2 shows what is wrong with it.
async function release(key: string): Promise<void> {
  await redis.del(key);
}

async function sendBatch(batch: number): Promise<void> {
  const giveUpAt = Date.now() + 4000;
  let token: string | null = null;
  while ((token = await acquire(KEY, TTL_MS)) === null) {
    if (Date.now() > giveUpAt) {
      lab.log(`batch ${batch}: gave up waiting for the lock`);
      return;
    }
    await lab.sleep(80 + Math.floor(Math.random() * 40));
  }
  lab.log(`batch ${batch}: holding the lock`);
  await lab.job('send-invoices').run(300);
  await release(KEY);
}

for (let batch = 1; batch <= 2; batch++) await sendBatch(batch);
redis.disconnect();
