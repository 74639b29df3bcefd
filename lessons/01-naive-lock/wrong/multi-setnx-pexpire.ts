// Wrong: takes the lock with MULTI / SETNX / PEXPIRE / EXEC: atomic, but the PEXPIRE runs whether or not the SETNX won.
// A client that fails to get the lock sets the TTL of the holder's lock back to ttlMs on every try: a lock whose
// holder crashed is kept alive by the very clients waiting for it, and never frees while they keep asking.
// Lesson 1 — the naive lock, fixed: one atomic SET … NX PX.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:send-invoices';
const TTL_MS = 1000; // how long the lock should live if its holder dies

// A transaction runs SETNX and PEXPIRE together, so no crash can fall between
// them and the key always gets its TTL.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const replies = await redis.multi().setnx(key, token).pexpire(key, ttlMs).exec();
  return replies?.[0]?.[1] === 1 ? token : null;
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
