// Leksjon 4 — én master med en replika, et løsningsforslag.
// Node 1 er masteren, Node 2 dens asynkrone replika. Som en klient bak
// Sentinel snakker hver worker med masteren og, når masteren er borte,
// med replikaen som ble forfremmet i stedet.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

// `replicas`: hvor mange replikaer som må bekrefte en lås tatt på den noden.
// Node 1 har én (Node 2). Node 2 har, når den er forfremmet, ingen igjen å spørre:
// et ekte oppsett ville koblet til en ny replika; laben kjører i degradert modus.
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

// Den første noden som tar imot skrivinger: masteren eller den forfremmede replikaen.
// En replika svarer på skrivinger med READONLY; en død node med en tilkoblingsfeil.
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

// Låsen teller først når replikaene har den: WAIT blokkerer til så mange
// replikaer har bekreftet skrivingene våre, eller til tidsavbruddet har gått.
// Uten bekreftelsen deres kan en failover glemme låsen, så gi den tilbake.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  return onMaster(async (redis, replicas) => {
    const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
    if (ok !== 'OK') return null;
    if (replicas === 0) return token;
    const acked = Number(await redis.call('WAIT', replicas, WAIT_MS));
    if (acked >= replicas) return token;
    lab.log(`only ${acked} of ${replicas} replica(s) confirmed the lock: giving it back`);
    await redis.eval(RELEASE, 1, key, token);
    return null;
  });
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
