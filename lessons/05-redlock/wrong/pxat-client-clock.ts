// Wrong: sends each node the lock's expiry as a moment of the client's clock (PXAT Date.now() + TTL).
// Clocks of different machines disagree: on a client whose clock is fast, every node keeps the lock longer than
// its TTL (a crashed holder blocks everyone); on a slow one the key is gone before the client counts its votes.
// Lesson 5 — Redlock by hand, a reference solution.
// Five independent masters; a lock counts only with a majority of them.
import Redis from 'ioredis';
import { randomBytes } from 'crypto';
import lab from 'lab';

const NODES = [1, 2, 3, 4, 5].map((i) => new Redis({ host: `redis-${i}.internal`, port: 6379, commandTimeout: 100, maxRetriesPerRequest: 1 }));
for (const redis of NODES) redis.on('error', () => undefined); // an unreachable node just votes no
const DRIFT_FACTOR = 0.01;
const KEY = 'lock:send-invoices';
const TTL_MS = 3000;

const RELEASE = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
else
  return 0
end`;

// A strict majority: two clients can never both collect one.
function quorum(nodes: number): number {
  return Math.floor(nodes / 2) + 1; // any two majorities share at least one node
}

async function setOn(redis: Redis, token: string): Promise<boolean> {
  try {
    // One deadline for every node, so all the votes expire at the same moment.
    return (await redis.set(KEY, token, 'PXAT', Date.now() + TTL_MS, 'NX')) === 'OK';
  } catch {
    return false; // a node we cannot reach votes no
  }
}

async function releaseEverywhere(token: string): Promise<void> {
  await Promise.all(NODES.map((redis) => redis.eval(RELEASE, 1, KEY, token).catch(() => 0)));
}

async function acquire(): Promise<{ token: string; validityMs: number } | null> {
  const token = randomBytes(20).toString('hex');
  const start = Date.now();
  const votes = (await Promise.all(NODES.map((redis) => setOn(redis, token)))).filter(Boolean).length;
  const validityMs = TTL_MS - (Date.now() - start) - (Math.floor(TTL_MS * DRIFT_FACTOR) + 2);
  if (votes >= quorum(NODES.length) && validityMs > 0) return { token, validityMs };
  await releaseEverywhere(token); // undo a partial lock before trying again
  return null;
}

const giveUpAt = Date.now() + 6000;
let lock = await acquire();
while (lock === null) {
  if (Date.now() > giveUpAt) throw new Error('no majority: gave up');
  await lab.sleep(80 + Math.floor(Math.random() * 40));
  lock = await acquire();
}
lab.log(`holding the lock for at most ${lock.validityMs} ms`);
try {
  await lab.job('send-invoices').run(1000);
} finally {
  await releaseEverywhere(lock.token);
}
for (const redis of NODES) redis.disconnect();
