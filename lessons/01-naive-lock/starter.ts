// Lesson 1 — the naive lock.
// Every client runs this same program at the same moment, like five workers
// whose cron job fires at 06:00. Each one has two batches of invoices to send,
// and two workers must never send at the same time.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:send-invoices';
const TTL_MS = 1000; // how long the lock should live if its holder dies

// EXERCISE: complete acquire(). Take the lock only if nobody holds it, in ONE
// atomic command, and let it expire after ttlMs. Return your token, or null.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const holder = await redis.get(key); // 1. is the lock free?
  if (holder !== null) return null;
  const token = randomUUID();
  await redis.set(key, token); // 2. take it (no NX, no TTL: see the lesson)
  return token;
}

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
