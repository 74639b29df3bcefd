// الدرس 1، في منتصف الطريق: SET … NX ذرّي، فزالت حالة التسابق،
// لكن المفتاح بلا مدة صلاحية. اجعل حائز القفل ينهار، وشاهد الآخرين ينتظرون إلى الأبد.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:send-invoices';

async function acquire(key: string): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'NX'); // ذرّي، لكن صلاحيته لا تنتهي أبدًا
  return ok === 'OK' ? token : null;
}

async function release(key: string): Promise<void> {
  await redis.del(key);
}

async function sendBatch(batch: number): Promise<void> {
  const giveUpAt = Date.now() + 4000;
  let token: string | null = null;
  while ((token = await acquire(KEY)) === null) {
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
