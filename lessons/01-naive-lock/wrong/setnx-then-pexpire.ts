// Wrong: takes the lock with SETNX, then sets its TTL with a separate PEXPIRE.
// The two commands are not atomic: a holder that crashes (or loses its connection)
// between SETNX and PEXPIRE leaves a key with no TTL, so the lock never frees and
// every other worker waits forever (a crash right after the SETNX reply shows it).
// Lesson 1 — the naive lock, fixed: SETNX takes it, PEXPIRE bounds it.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:send-invoices';
const TTL_MS = 1000; // how long the lock should live if its holder dies

// SETNX checks and takes the lock in one command, so no other client can
// slip in between; PEXPIRE then makes the key expire if we die holding it.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.setnx(key, token);
  if (ok !== 1) return null;
  await redis.pexpire(key, ttlMs);
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
