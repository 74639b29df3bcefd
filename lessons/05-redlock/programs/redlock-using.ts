// Lesson 5 — the same worker with the `redlock` library (the Norwegian course lesson's style).
// redlock.using() acquires on a majority, extends while the routine runs,
// and releases at the end; signal.aborted says the lock was lost.
import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';

const nodes = [1, 2, 3, 4, 5].map((i) => new Redis({ host: `redis-${i}.internal`, port: 6379, commandTimeout: 100 }));
for (const node of nodes) node.on('error', () => undefined); // a dead node is expected here: it just votes no
const redlock = new Redlock(nodes, {
  driftFactor: 0.01, // clock-drift allowance: TTL × 1 % + 2 ms
  retryCount: 20,
  retryDelay: 100, // ms between attempts …
  retryJitter: 50, // … ± up to this much, so clients do not retry in lockstep
});

await lab.sleep(150); // load today's invoices before locking
try {
  await redlock.using(['lock:send-invoices'], 3000, async (signal) => {
    await lab.job('send-invoices').run(1500);
    if (signal.aborted) throw signal.error; // the lock was lost while we worked
  });
} catch (error) {
  lab.log(`could not finish under the lock: ${(error as Error).message}`);
}
await redlock.quit().catch(() => undefined); // nodes that are down cannot say goodbye
