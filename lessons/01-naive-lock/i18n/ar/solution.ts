// الدرس 1: القفل الساذج بعد إصلاحه: أمر SET … NX PX ذرّي واحد.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:send-invoices';
const TTL_MS = 1000; // كم ينبغي أن يبقى القفل إن مات حائزه

// أمر واحد يفحص القفل ويأخذه، فلا يستطيع أي عميل آخر أن يتسلل بين
// الخطوتين؛ ويجعل PX صلاحية المفتاح تنتهي إن متنا ونحن نحوزه.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
  return ok === 'OK' ? token : null;
}

// لا يزال DEL عاديًا: يبيّن الدرس 2 ما الخطأ فيه.
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
