// Wrong: when Node 1 (the token counter) does not answer, takes the token from the next node's counter.
// Each node counts on its own: while Node 1 is down, Node 2's counter hands out a
// token the store has already seen (or a smaller one), so the new holder's write is
// refused and the tokens no longer follow the grants. Wait for the one counter instead.
// Lesson 7 — fencing tokens.
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
// Stay available: if a node does not answer, ask the next one.
async function nextToken(key: string): Promise<number> {
  for (const node of nodes) {
    try {
      return Number(await node.incr(key));
    } catch {
      // that node is down: try the next
    }
  }
  throw new Error('no node could hand out a token');
}

const TTL_MS = 2000;
const SEND_MS = 800;

// The resource checks the token, so safety no longer depends on timing:
// a stale writer is refused however long it slept. The store is remote, so
// the refusal arrives as a rejected promise.
async function fencedWrite(key: string, value: string, token: number): Promise<boolean> {
  try {
    await lab.store.write(key, value, token);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'EFENCED') return false;
    throw error;
  }
}

const lock = await redlock.acquire(['lock:invoice-2024-06'], TTL_MS);
const token = await nextToken('fencing:invoice-2024-06');
lab.log(`lock granted with fencing token ${token}`);
try {
  await lab.sleep(800); // render the PDF
  // No validity check this time (lesson 6's check would still save work,
  // but safety no longer rests on it). The send is the critical section;
  // its last step records the invoice.
  const accepted = await lab.job('send-invoice').run(SEND_MS, () =>
    fencedWrite('invoice-2024-06', `sent by Client ${lab.client}`, token),
  );
  lab.log(accepted ? 'invoice recorded' : `fenced off: token ${token} is stale`);
} finally {
  await lock.release().catch(() => undefined);
}
await redlock.quit().catch(() => undefined);
