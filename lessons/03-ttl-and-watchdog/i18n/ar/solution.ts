// الدرس 3: مدة الصلاحية والمراقب، حلّ مرجعي.
// تستغرق إعادة الفهرسة 1.8 s، لكن لا أحد يريد أن يعطّل عاملٌ منهار الآخرين
// طويلًا، لذا فمدة الصلاحية 900 ms فقط. يُبقي المراقب (watchdog) القفلَ حيًّا
// كل TTL/3 ما دام العمل جاريًا، وextend() لا تجدّده إلا ما دام القفل لنا.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:reindex';
const TTL_MS = 900;

const RELEASE = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
else
  return 0
end`;

async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
  return ok === 'OK' ? token : null;
}

async function release(key: string, token: string): Promise<void> {
  await redis.eval(RELEASE, 1, key, token);
}

// كما في التحرير: المقارنة والتنفيذ في سكربت واحد، فلا نمدّد أبدًا قفلًا
// انتقل بالفعل إلى غيرنا.
const EXTEND = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
else
  return 0
end`;

async function extend(key: string, token: string, ttlMs: number): Promise<boolean> {
  const extended = await redis.eval(EXTEND, 1, key, token, ttlMs);
  return extended === 1;
}

// يجدّد القفل كل TTL/3. التجديد الذي ينتهي بخطأ (انتهاء المهلة) قد ينجح في
// المرة التالية؛ أما التجديد الذي يجد رمزًا آخر فمعناه أن القفل قد ضاع.
function startWatchdog(key: string, token: string, ttlMs: number): () => void {
  const timer = setInterval(async () => {
    try {
      if (await extend(key, token, ttlMs)) return;
      clearInterval(timer);
      lab.log('lost the lock: it now belongs to someone else');
    } catch (error) {
      lab.log(`renewal failed (${(error as Error).message}); trying again in ${Math.floor(ttlMs / 3)} ms`);
    }
  }, Math.floor(ttlMs / 3));
  return () => clearInterval(timer);
}

const giveUpAt = Date.now() + 8000;
let token: string | null = null;
while ((token = await acquire(KEY, TTL_MS)) === null) {
  if (Date.now() > giveUpAt) throw new Error('gave up waiting for the lock');
  await lab.sleep(40 + Math.floor(Math.random() * 20));
}
const stopWatchdog = startWatchdog(KEY, token, TTL_MS);
try {
  await lab.job('reindex').run(1800);
} finally {
  stopWatchdog();
  await release(KEY, token).catch(() => undefined);
}
redis.disconnect();
