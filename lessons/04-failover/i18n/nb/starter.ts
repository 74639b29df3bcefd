// Leksjon 4 — én master med en replika.
// Node 1 er masteren, Node 2 dens asynkrone replika. Som en klient bak
// Sentinel snakker hver worker med masteren og, når masteren er borte,
// med replikaen som ble forfremmet i stedet.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const NODES = [
  { name: 'Node 1', redis: new Redis({ host: 'redis-1.internal', port: 6379, commandTimeout: 500 }) },
  { name: 'Node 2', redis: new Redis({ host: 'redis-2.internal', port: 6379, commandTimeout: 500 }) },
];
const KEY = 'lock:send-invoices';
const TTL_MS = 5000;

const RELEASE = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
else
  return 0
end`;

// Den første noden som tar imot skrivinger: masteren eller den forfremmede replikaen.
// En replika svarer på skrivinger med READONLY; en død node med en tilkoblingsfeil.
async function onMaster<T>(command: (redis: Redis) => Promise<T>): Promise<T> {
  let last: unknown;
  for (const node of NODES) {
    try {
      return await command(node.redis);
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

// OPPGAVE: en lås på Node 1 går tapt hvis Node 1 dør før Node 2 har en kopi.
// Få acquire() til å regne låsen som tatt først når nok replikaer har den:
// etter SET ber du Redis om å vente på dem med WAIT (redis.call('WAIT', replicas, ms)),
// og bekreftet de ikke i tide, slipper du låsen og returnerer null.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await onMaster((redis) => redis.set(key, token, 'PX', ttlMs, 'NX'));
  return ok === 'OK' ? token : null;
}

async function release(key: string, token: string): Promise<void> {
  await onMaster((redis) => redis.eval(RELEASE, 1, key, token));
}

await lab.sleep(150); // last inn dagens fakturaer før låsing
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
