// الدرس 6 — التوقفات والساعات.
// Redlock فوق خمس عقد (مكتبة `redlock`). يحصل كل عامل على القفل،
// ثم يولّد ملف PDF لفاتورة هذا الشهر (بطيء: 500 ms)، ثم يرسلها: الإرسال هو
// القسم الحرج، وهو يسجّل الفاتورة في المخزن المشترك.
import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';

const nodes = [1, 2, 3, 4, 5].map((i) => new Redis({ host: `redis-${i}.internal`, port: 6379, commandTimeout: 100 }));
for (const node of nodes) node.on('error', () => undefined);
const redlock = new Redlock(nodes, { driftFactor: 0.01, retryCount: 40, retryDelay: 100, retryJitter: 50 });

const TTL_MS = 2000;
const SEND_MS = 800;

// التمرين: لا يصلح القفل إلا حتى lock.expiration (وقتٌ على ساعة هذا
// العميل، مخصومٌ منه هامش الانحراف مسبقًا). أعِد true فقط إن كان القفل
// سيبقى ساريًا عند انتهاء خطوة مدتها `ms` ميلي ثانية، مع هامش قدره 100 ms.
function safeToCommit(lock: { expiration: number }, ms: number): boolean {
  return true;
}

const lock = await redlock.acquire(['lock:invoice-2024-06'], TTL_MS);
try {
  await lab.sleep(500); // توليد ملف PDF (ليس أثرًا جانبيًا بعد)
  if (!safeToCommit(lock, SEND_MS)) {
    lab.log('the lock ran out while rendering: not sending');
  } else {
    await lab.job('send-invoice').run(SEND_MS);
    await lab.store.write('invoice-2024-06', `sent by Client ${lab.client}`);
  }
} finally {
  await lock.release().catch(() => undefined); // ربما انتهت صلاحيته بالفعل
}
await redlock.quit().catch(() => undefined);
