// Wrong: takes the fencing token (INCR) before acquiring the lock, not after.
// Tokens then follow the INCRs, not the grants: A gets token 1 and B token 2,
// B wins the lock first and pauses past its validity, A takes the lock and
// writes with 1, then the stale B wakes and writes with 2: accepted.
// Lesson 7 — fencing tokens, a reference solution.
// Lesson 6's worker, plus a fencing token: a number that grows with every
// grant of the lock. The store remembers the highest token it accepted and
// refuses older ones, so a writer that lost its lock in a pause is turned away.
import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';

const nodes = [1, 2, 3, 4, 5].map((i) => new Redis({ host: `redis-${i}.internal`, port: 6379, commandTimeout: 100 }));
for (const node of nodes) node.on('error', () => undefined);
const redlock = new Redlock(nodes, { driftFactor: 0.01, retryCount: 40, retryDelay: 100, retryJitter: 50 });

// The token counter. Redlock cannot make one (its nodes do not agree on an
// order); in production use a consensus store — an etcd revision, a ZooKeeper
// zxid, a database sequence. In the lab, one INCR on Node 1 stands in for it.
// Its own connection, which waits up to two seconds for Node 1, even through a restart
// (maxRetriesPerRequest: null): a token is worth waiting for, unlike one node's vote, and one
// taken from another node's counter would not follow the grants.
const counter = new Redis({ host: 'redis-1.internal', port: 6379, commandTimeout: 2000, maxRetriesPerRequest: null });
counter.on('error', () => undefined);

const TTL_MS = 2000;
const SEND_MS = 800;

// The resource checks the token, so safety no longer depends on timing:
// a stale writer is refused however long it slept.
async function fencedWrite(key: string, value: string, token: number): Promise<boolean> {
  try {
    await lab.store.write(key, value, token);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'EFENCED') return false;
    throw error;
  }
}

const token = Number(await counter.incr('fencing:invoice-2024-06'));
const lock = await redlock.acquire(['lock:invoice-2024-06'], TTL_MS);
lab.log(`lock granted with fencing token ${token}`);
try {
  await lab.sleep(800); // render the PDF
  // No validity check this time (lesson 6's check would still save work,
  // but safety no longer rests on it). The send is the critical section;
  // its last step records the invoice.
  const section = lab.job('send-invoice').run(SEND_MS + 20);
  await lab.sleep(SEND_MS);
  const accepted = await fencedWrite('invoice-2024-06', `sent by Client ${lab.client}`, token);
  lab.log(accepted ? 'invoice recorded' : `fenced off: token ${token} is stale`);
  await section;
} finally {
  await lock.release().catch(() => undefined);
}
await redlock.quit().catch(() => undefined);
await counter.quit().catch(() => undefined);
