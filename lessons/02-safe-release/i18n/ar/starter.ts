// الدرس 2: التحرير الآمن للقفل.
// يرسل كل عامل دفعته تحت القفل (500 ms، أقل بكثير من مدة الصلاحية)، ثم
// يرفع تقريرًا قبل أن يحرّر القفل. الرفع بطيء اليوم، فتنتهي صلاحية القفل
// قبل التحرير، والتحرير مجرد DEL عادي.
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

// التمرين: احذف المفتاح فقط إن كان لا يزال يحمل رمزك أنت، بشكل ذرّي.
// أعِد true إن حذفت قفلك أنت، وfalse إن لم يعد القفل قفلك.
async function release(key: string, token: string): Promise<boolean> {
  const deleted = await redis.del(key); // يحذف أي قفل موجود الآن، أيًّا كان صاحبه
  return deleted === 1;
}

const giveUpAt = Date.now() + 5000;
let token: string | null = null;
while ((token = await acquire(KEY, TTL_MS)) === null) {
  if (Date.now() > giveUpAt) throw new Error('gave up waiting for the lock');
  await lab.sleep(40 + Math.floor(Math.random() * 20));
}
try {
  await lab.job('send-invoices').run(500); // القسم الحرج
  await lab.sleep(700); // رفع التقرير: خارج القسم الحرج، لكن قبل التحرير
} finally {
  const mine = await release(KEY, token);
  lab.log(mine ? 'released my lock' : 'my lock had expired: nothing to release');
}
redis.disconnect();
