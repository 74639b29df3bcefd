// Wrong: takes over a lock that looks stuck (more than half its TTL gone) with a plain SET.
// Lesson 1 — the naive lock, "unstuck": a lock held a long time is assumed to belong to a dead
// holder. But its holder may only be paused (a GC pause, a slow disk); when it wakes, two clients
// believe they hold the lock. Only the TTL may decide that a holder is gone.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:send-invoices';
const TTL_MS = 1000; // how long the lock should live if its holder dies

async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
  if (ok === 'OK') return token;
  // The lock looks stuck: more than half its TTL is gone, so its holder must be dead. Take it over.
  const left = Number(await redis.pttl(key));
  if (left >= 0 && left < ttlMs / 2) {
    await redis.set(key, token, 'PX', ttlMs);
    return token;
  }
  return null;
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
