// Leksjon 2 — slipp låsen trygt.
// Hver worker sender batchen sin mens den holder låsen (500 ms, godt innenfor
// TTL-en), og laster så opp en rapport før den slipper låsen. Opplastingen går
// tregt i dag, så låsen utløper før den slippes — og den slippes med en vanlig DEL.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:send-invoices';
const TTL_MS = 1000;

async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
  return ok === 'OK' ? token : null;
}

// OPPGAVE: Slett nøkkelen bare hvis den fortsatt har DITT token, atomisk.
// Returner true hvis du slettet din egen lås, false hvis den ikke lenger var din.
async function release(key: string, token: string): Promise<boolean> {
  const deleted = await redis.del(key); // sletter den låsen som ligger der nå, uansett hvem sin
  return deleted === 1;
}

const giveUpAt = Date.now() + 5000;
let token: string | null = null;
while ((token = await acquire(KEY, TTL_MS)) === null) {
  if (Date.now() > giveUpAt) throw new Error('gave up waiting for the lock');
  await lab.sleep(40 + Math.floor(Math.random() * 20));
}
try {
  await lab.job('send-invoices').run(500); // den kritiske seksjonen
  await lab.sleep(700); // last opp rapporten: utenfor seksjonen, men fortsatt før låsen slippes
} finally {
  const mine = await release(KEY, token);
  lab.log(mine ? 'released my lock' : 'my lock had expired: nothing to release');
}
redis.disconnect();
