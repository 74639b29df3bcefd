// الدرس 1: القفل الساذج.
// يشغّل كل عميل هذا البرنامج نفسه في اللحظة نفسها، مثل خمسة عمّال تنطلق
// مهمة cron لديهم عند 06:00. لدى كلٍّ منهم دفعتان من الفواتير لإرسالهما،
// ويجب ألا يرسل عاملان في الوقت نفسه أبدًا.
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const KEY = 'lock:send-invoices';
const TTL_MS = 1000; // كم ينبغي أن يبقى القفل إن مات حائزه

// التمرين: أكمل acquire(). خذ القفل فقط إن لم يكن أحد يحوزه، بأمر ذرّي
// واحد فقط، واجعل صلاحيته تنتهي بعد ttlMs. أعِد رمزك (token)، أو null.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const holder = await redis.get(key); // 1. هل القفل حر؟
  if (holder !== null) return null;
  const token = randomUUID();
  await redis.set(key, token); // 2. خذه (بلا NX وبلا مدة صلاحية: انظر الدرس)
  return token;
}

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
