// Leksjon 2 — slipp låsen trygt, en referanseløsning.
// Hver worker sender batchen sin mens den holder låsen (500 ms, godt innenfor
// TTL-en), og laster så opp en rapport før den slipper låsen. Opplastingen går
// tregt i dag, så låsen utløper før den slippes — derfor sletter slippingen nøkkelen
// bare hvis den fortsatt har tokenet vårt, i ett skript.
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

// Sammenlign og slett i ett Lua-skript: Redis kjører et skript uten å slippe
// andre kommandoer inn underveis, så ingen kan ta nøkkelen mellom de to stegene.
const RELEASE = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
else
  return 0
end`;

async function release(key: string, token: string): Promise<boolean> {
  const deleted = await redis.eval(RELEASE, 1, key, token);
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
