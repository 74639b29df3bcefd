// Wrong: extend() adds ttlMs to the time the lock has left (PTTL + ttlMs), instead of setting it to ttlMs from now.
// Every renewal stretches the lock further: after a few renewals a crashed holder's lock outlives it by far more than
// its TTL, and the others wait for it. A renewal resets the TTL to ttlMs; it never adds to it.
// Lesson 3 — TTL and the watchdog, a reference solution.
// Re-indexing takes 1.8 s, but nobody wants a crashed worker to block the
// others for long, so the TTL is only 900 ms. A watchdog keeps the lock alive
// every TTL/3 while the work runs, with extend() renewing it only while it is ours.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:reindex';
const TTL_MS = 900;

const RELEASE = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
else
  return 0
end`;

async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
  return ok === 'OK' ? token : null;
}

async function release(key: string, token: string): Promise<void> {
  await redis.eval(RELEASE, 1, key, token);
}

// Like the release: compare and act in one script, so we never extend a
// lock that has already passed to someone else.
const EXTEND = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  local left = redis.call('pttl', KEYS[1])
  return redis.call('pexpire', KEYS[1], left + tonumber(ARGV[2]))
else
  return 0
end`;

async function extend(key: string, token: string, ttlMs: number): Promise<boolean> {
  const extended = await redis.eval(EXTEND, 1, key, token, ttlMs);
  return extended === 1;
}

// Renews the lock every TTL/3. A renewal that errors (a timeout) may still
// succeed next time; a renewal that finds another token means the lock is gone.
function startWatchdog(key: string, token: string, ttlMs: number): () => void {
  const timer = setInterval(async () => {
    try {
      if (await extend(key, token, ttlMs)) return;
      clearInterval(timer);
      lab.log('lost the lock: it now belongs to someone else');
    } catch (error) {
      lab.log(`renewal failed (${(error as Error).message}); trying again in ${Math.floor(ttlMs / 3)} ms`);
    }
  }, Math.floor(ttlMs / 3));
  return () => clearInterval(timer);
}

const giveUpAt = Date.now() + 8000;
let token: string | null = null;
while ((token = await acquire(KEY, TTL_MS)) === null) {
  if (Date.now() > giveUpAt) throw new Error('gave up waiting for the lock');
  await lab.sleep(40 + Math.floor(Math.random() * 20));
}
const stopWatchdog = startWatchdog(KEY, token, TTL_MS);
try {
  await lab.job('reindex').run(1800);
} finally {
  stopWatchdog();
  await release(KEY, token).catch(() => undefined);
}
redis.disconnect();
