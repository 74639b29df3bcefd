// الدرس 4 — خادم رئيسي واحد مع نسخة متماثلة، حلٌّ مرجعي.
// العقدة 1 هي الخادم الرئيسي، والعقدة 2 نسختها المتماثلة غير المتزامنة. وكما يفعل
// العميل خلف Sentinel، يتحدث كل عامل إلى الخادم الرئيسي، فإن غاب
// تحدّث إلى النسخة المتماثلة التي رُقّيت مكانه.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

// `replicas`: عدد النسخ المتماثلة التي يجب أن تؤكد قفلًا أُخذ على تلك العقدة.
// للعقدة 1 نسخة واحدة (العقدة 2). أما العقدة 2 بعد ترقيتها فلا يبقى لها من تسأله:
// في نشر حقيقي تُلحَق بها نسخة متماثلة جديدة؛ أما المختبر فيعمل في وضع متدهور.
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

// أول عقدة تقبل الكتابة: الخادم الرئيسي، أو النسخة المتماثلة المُرقّاة.
// ترد النسخة المتماثلة على الكتابة بـ READONLY، والعقدة الساقطة بخطأ اتصال.
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

// لا يُحتسب القفل إلا بعد أن يصل إلى النسخ المتماثلة: يبقى WAIT معلّقًا إلى أن يُقرّ
// هذا العدد من النسخ باستلام كتاباتنا، أو تنقضي المهلة. ومن دون إقرارها
// قد ينسى التحويل عند الفشل القفلَ، لذا نحرّره.
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
