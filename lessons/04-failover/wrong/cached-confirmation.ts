// Wrong: caches the replicas' confirmation: once WAIT confirmed one lock, every later acquire() counts without WAIT.
// WAIT confirms the writes sent before it, not the replica's health for good: the
// next lock may be taken while replication is held back, and a failover then
// forgets it while acquire() has already returned it (the second acquire).
// Lesson 4 — one master with a replica, a reference solution.
// Node 1 is the master, Node 2 its asynchronous replica. Like a client behind
// Sentinel, each worker talks to the master and, when the master is gone,
// to the replica that was promoted in its place.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

// `replicas`: how many replicas must confirm a lock taken on that node.
// Node 1 has one (Node 2). Node 2, once promoted, has none left to ask:
// a real deployment would attach a new replica; the lab runs degraded.
const NODES = [
  { name: 'Node 1', replicas: 1, redis: new Redis({ host: 'redis-1.internal', port: 6379, commandTimeout: 500 }) },
  { name: 'Node 2', replicas: 0, redis: new Redis({ host: 'redis-2.internal', port: 6379, commandTimeout: 500 }) },
];
const WAIT_MS = 200;
const KEY = 'lock:send-invoices';
const TTL_MS = 5000;

const RELEASE = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
else
  return 0
end`;

// The first node that accepts writes: the master, or the promoted replica.
// A replica answers writes with READONLY; a dead node with a connection error.
async function onMaster<T>(command: (redis: Redis, replicas: number) => Promise<T>): Promise<T> {
  let last: unknown;
  for (const node of NODES) {
    try {
      return await command(node.redis, node.replicas);
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

// The lock counts only once the replicas have it: WAIT blocks until that many
// replicas acknowledged our writes, or the timeout passes. Without their
// acknowledgement a failover could forget the lock, so give it back.
// The replicas confirmed a lock once: they are in sync, so later locks need no WAIT.
let confirmed = false;

async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  return onMaster(async (redis, replicas) => {
    const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
    if (ok !== 'OK') return null;
    if (replicas === 0 || confirmed) return token;
    const acked = Number(await redis.call('WAIT', replicas, WAIT_MS));
    if (acked >= replicas) {
      confirmed = true;
      return token;
    }
    lab.log(`only ${acked} of ${replicas} replica(s) confirmed the lock: giving it back`);
    await redis.eval(RELEASE, 1, key, token);
    return null;
  });
}

async function release(key: string, token: string): Promise<void> {
  await onMaster((redis) => redis.eval(RELEASE, 1, key, token));
}

await lab.sleep(150); // load today's invoices before locking
const giveUpAt = Date.now() + 8000;
let token: string | null = null;
while ((token = await acquire(KEY, TTL_MS).catch(() => null)) === null) {
  if (Date.now() > giveUpAt) throw new Error('gave up waiting for the lock');
  await lab.sleep(80 + Math.floor(Math.random() * 40));
}
try {
  await lab.job('send-invoices').run(2000);
} finally {
  await release(KEY, token).catch(() => undefined);
}
for (const node of NODES) node.redis.disconnect();
