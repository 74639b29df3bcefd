// Wrong: sets the lock's expiry as an absolute time from the client's own clock (PXAT Date.now() + ttlMs).
// Lesson 1 — the naive lock, with an expiry at a moment in time. Date.now() is this client's clock;
// Redis's differs. A client whose clock runs fast gives the lock a longer life than ttlMs (a crashed
// holder blocks everyone that much longer); one whose clock runs slow gives it none at all.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:send-invoices';
const TTL_MS = 1000; // how long the lock should live if its holder dies

async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PXAT', Date.now() + ttlMs, 'NX');
  return ok === 'OK' ? token : null;
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
