// Wrong: remembers the locks this client holds and answers from memory: a key it took before is "still ours".
// The memory is cleared only by release(): a lock that expired under its holder (a crash, a long pause) and was
// taken by another client is still "ours" to this client, and both believe they hold it.
// Lesson 1 — the naive lock, fixed: one atomic SET … NX PX.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:send-invoices';
const TTL_MS = 1000; // how long the lock should live if its holder dies

// The locks this client holds: asking Redis again for one we already hold
// would only cost a round trip.
const held = new Map<string, string>();

// One command checks and takes the lock, so no other client can slip in
// between; PX makes the key expire if we die holding it.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const mine = held.get(key);
  if (mine !== undefined) return mine;
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
  if (ok !== 'OK') return null;
  held.set(key, token);
  return token;
}

// Still a plain DEL: lesson 2 shows what is wrong with it.
async function release(key: string): Promise<void> {
  held.delete(key);
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
