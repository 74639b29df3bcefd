// Leksjon 7 – fencing-tokens, en referanseløsning.
// Workeren fra leksjon 6, pluss et fencing-token: et tall som øker hver gang
// låsen deles ut. Lageret husker det høyeste tokenet det har godtatt, og avviser
// eldre tokens, så en skriver som mistet låsen under en pause, blir stoppet.
import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';

const nodes = [1, 2, 3, 4, 5].map((i) => new Redis({ host: `redis-${i}.internal`, port: 6379, commandTimeout: 100 }));
for (const node of nodes) node.on('error', () => undefined);
const redlock = new Redlock(nodes, { driftFactor: 0.01, retryCount: 40, retryDelay: 100, retryJitter: 50 });

// Token-telleren. Redlock kan ikke lage en (nodene er ikke enige om noen
// rekkefølge); i produksjon bruker du et konsensuslager – en etcd-revisjon, en
// ZooKeeper-zxid, en databasesekvens. I lab-en står én INCR på Node 1 i stedet.
// En egen tilkobling som venter opptil to sekunder på Node 1, også gjennom en omstart
// (maxRetriesPerRequest: null): et token er verdt å vente på, i motsetning til én nodes stemme,
// og et token fra en annen nodes teller ville ikke følge tildelingene.
const counter = new Redis({ host: 'redis-1.internal', port: 6379, commandTimeout: 2000, maxRetriesPerRequest: null });
counter.on('error', () => undefined);

const TTL_MS = 2000;
const SEND_MS = 800;

// Ressursen sjekker tokenet, så sikkerheten avhenger ikke lenger av timing:
// en utdatert skriver blir avvist uansett hvor lenge den sov. Lageret er
// eksternt, så avvisningen kommer som et avvist promise.
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
const token = Number(await counter.incr('fencing:invoice-2024-06'));
lab.log(`lock granted with fencing token ${token}`);
try {
  await lab.sleep(800); // lag PDF-en
  // Ingen gyldighetssjekk denne gangen (sjekken fra leksjon 6 ville fortsatt spart
  // arbeid, men sikkerheten hviler ikke lenger på den). Sendingen er den kritiske
  // seksjonen; det siste steget registrerer fakturaen.
  const accepted = await lab.job('send-invoice').run(SEND_MS, () =>
    fencedWrite('invoice-2024-06', `sent by Client ${lab.client}`, token),
  );
  lab.log(accepted ? 'invoice recorded' : `fenced off: token ${token} is stale`);
} finally {
  await lock.release().catch(() => undefined);
}
await redlock.quit().catch(() => undefined);
await counter.quit().catch(() => undefined);
