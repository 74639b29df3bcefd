// Leksjon 6 — pauser og klokker.
// Redlock over fem noder (`redlock`-biblioteket). Hver worker tar låsen,
// rendrer denne månedens faktura-PDF (tregt, 500 ms) og sender den: sendingen er
// den kritiske seksjonen, og den registrerer fakturaen i det delte lageret.
import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';

const nodes = [1, 2, 3, 4, 5].map((i) => new Redis({ host: `redis-${i}.internal`, port: 6379, commandTimeout: 100 }));
for (const node of nodes) node.on('error', () => undefined);
const redlock = new Redlock(nodes, { driftFactor: 0.01, retryCount: 40, retryDelay: 100, retryJitter: 50 });

const TTL_MS = 2000;
const SEND_MS = 800;

// OPPGAVE: låsen gjelder bare til lock.expiration (et tidspunkt på denne
// klientens klokke, allerede forkortet for drift). Returner true bare hvis låsen
// fortsatt er gyldig når et steg på `ms` millisekunder er ferdig, med 100 ms å gå på.
function safeToCommit(lock: { expiration: number }, ms: number): boolean {
  return true;
}

const lock = await redlock.acquire(['lock:invoice-2024-06'], TTL_MS);
try {
  await lab.sleep(500); // rendre PDF-en (ennå ingen sideeffekt)
  if (!safeToCommit(lock, SEND_MS)) {
    lab.log('the lock ran out while rendering: not sending');
  } else {
    await lab.job('send-invoice').run(SEND_MS);
    await lab.store.write('invoice-2024-06', `sent by Client ${lab.client}`);
  }
} finally {
  await lock.release().catch(() => undefined); // den kan allerede ha utløpt
}
await redlock.quit().catch(() => undefined);
