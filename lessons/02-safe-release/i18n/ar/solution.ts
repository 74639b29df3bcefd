// الدرس 2: التحرير الآمن للقفل، حلّ مرجعي.
// يرسل كل عامل دفعته تحت القفل (500 ms، أقل بكثير من مدة الصلاحية)، ثم
// يرفع تقريرًا قبل أن يحرّر القفل. الرفع بطيء اليوم، فتنتهي صلاحية القفل
// قبل التحرير؛ لذا لا يحذف التحرير المفتاح إلا إن كان لا يزال يحمل رمزنا، في سكربت واحد.
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

// المقارنة والحذف في سكربت Lua واحد: ينفّذ Redis السكربت دون أن يُدخل
// بين خطواته أوامر أخرى، فلا يستطيع أحد أخذ المفتاح بين الخطوتين.
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
  await lab.job('send-invoices').run(500); // القسم الحرج
  await lab.sleep(700); // رفع التقرير: خارج القسم الحرج، لكن قبل التحرير
} finally {
  const mine = await release(KEY, token);
  lab.log(mine ? 'released my lock' : 'my lock had expired: nothing to release');
}
redis.disconnect();
