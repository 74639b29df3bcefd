// Wrong: runs WAIT before the SET, so it confirms earlier writes, never the lock itself.
// The SET … NX PX that takes the lock is replicated asynchronously after WAIT
// returned: a failover right after the SET forgets the lock and a second worker
// takes it while the first still sends (the same window as with no WAIT at all).
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

// Take the lock only when the replicas are in sync: WAIT blocks until that many
// replicas acknowledged our writes, or the timeout passes. If they are behind,
// a failover could forget the lock, so do not take it.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  return onMaster(async (redis, replicas) => {
    if (replicas > 0) {
      const acked = Number(await redis.call('WAIT', replicas, WAIT_MS));
      if (acked < replicas) {
        lab.log(`only ${acked} of ${replicas} replica(s) in sync: not locking yet`);
        return null;
      }
    }
    const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
    return ok === 'OK' ? token : null;
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
