// الدرس 4 — خادم رئيسي واحد مع نسخة متماثلة.
// العقدة 1 هي الخادم الرئيسي، والعقدة 2 نسختها المتماثلة غير المتزامنة. وكما يفعل
// العميل خلف Sentinel، يتحدث كل عامل إلى الخادم الرئيسي، فإن غاب
// تحدّث إلى النسخة المتماثلة التي رُقّيت مكانه.
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

// أول عقدة تقبل الكتابة: الخادم الرئيسي، أو النسخة المتماثلة المُرقّاة.
// ترد النسخة المتماثلة على الكتابة بـ READONLY، والعقدة الساقطة بخطأ اتصال.
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

// التمرين: يضيع القفل المأخوذ على العقدة 1 إن سقطت العقدة 1 قبل أن تصل نسخة منه إلى العقدة 2.
// اجعل acquire() لا تَعُدّ القفل مأخوذًا إلا بعد أن يصل إلى عدد كافٍ من النسخ المتماثلة:
// بعد SET، اطلب من Redis أن ينتظرها بالأمر WAIT (redis.call('WAIT', replicas, ms))،
// وإن لم تؤكده في الوقت المحدد، فحرِّر القفل وأعِد null.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await onMaster((redis) => redis.set(key, token, 'PX', ttlMs, 'NX'));
  return ok === 'OK' ? token : null;
}

async function release(key: string, token: string): Promise<void> {
  await onMaster((redis) => redis.eval(RELEASE, 1, key, token));
}

await lab.sleep(150); // تحميل فواتير اليوم قبل أخذ القفل
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
