// Leksjon 1 — den naive låsen.
// Alle klientene kjører dette samme programmet i samme øyeblikk, som fem workere
// der cron-jobben starter klokka 06:00. Hver av dem har to batcher med fakturaer
// å sende, og to workere må aldri sende samtidig.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:send-invoices';
const TTL_MS = 1000; // hvor lenge låsen skal leve hvis den som holder den, dør

// OPPGAVE: Fullfør acquire(). Ta låsen bare hvis ingen holder den, med ÉN
// atomisk kommando, og la den utløpe etter ttlMs. Returner tokenet ditt, eller null.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const holder = await redis.get(key); // 1. er låsen ledig?
  if (holder !== null) return null;
  const token = randomUUID();
  await redis.set(key, token); // 2. ta den (ingen NX, ingen TTL: se leksjonen)
  return token;
}

async function release(key: string): Promise<void> {
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
