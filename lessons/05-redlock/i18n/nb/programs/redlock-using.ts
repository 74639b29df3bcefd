// Leksjon 5 — den samme workeren med `redlock`-biblioteket (i stilen fra den norske kursleksjonen).
// redlock.using() tar låsen på et flertall, forlenger den mens rutinen kjører,
// og slipper den til slutt; signal.aborted forteller at låsen gikk tapt.
import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';

const nodes = [1, 2, 3, 4, 5].map((i) => new Redis({ host: `redis-${i}.internal`, port: 6379, commandTimeout: 100 }));
for (const node of nodes) node.on('error', () => undefined); // en død node er forventet her: den stemmer bare nei
const redlock = new Redlock(nodes, {
  driftFactor: 0.01, // tillegg for klokkedrift: TTL × 1 % + 2 ms
  retryCount: 20,
  retryDelay: 100, // ms mellom forsøkene …
  retryJitter: 50, // … ± inntil så mye, så klientene ikke prøver igjen i takt
});

await lab.sleep(150); // last inn dagens fakturaer før låsing
try {
  await redlock.using(['lock:send-invoices'], 3000, async (signal) => {
    await lab.job('send-invoices').run(1500);
    if (signal.aborted) throw signal.error; // låsen gikk tapt mens vi jobbet
  });
} catch (error) {
  lab.log(`could not finish under the lock: ${(error as Error).message}`);
}
await redlock.quit().catch(() => undefined); // noder som er nede, kan ikke si ha det
