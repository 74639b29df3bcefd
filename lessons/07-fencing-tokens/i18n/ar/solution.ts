// الدرس 7 — رموز التسييج، حلّ مرجعي.
// عامل الدرس 6، مضافًا إليه رمز تسييج: رقم يزداد مع كل منحٍ
// للقفل. يتذكر المخزن أعلى رمز قبِله ويرفض الرموز الأقدم،
// فيُصَدّ الكاتب الذي فقد قفله أثناء توقفه.
import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';

const nodes = [1, 2, 3, 4, 5].map((i) => new Redis({ host: `redis-${i}.internal`, port: 6379, commandTimeout: 100 }));
for (const node of nodes) node.on('error', () => undefined);
const redlock = new Redlock(nodes, { driftFactor: 0.01, retryCount: 40, retryDelay: 100, retryJitter: 50 });

// عدّاد الرموز. لا يستطيع Redlock أن يصنع عدّادًا كهذا (عُقده لا تتفق على
// ترتيب)؛ في بيئة الإنتاج استخدم مخزن إجماع: رقم المراجعة في etcd، أو zxid
// في ZooKeeper، أو تسلسلًا في قاعدة البيانات. وفي المختبر يقوم مقامه INCR واحد على العقدة 1.
// اتصال خاص به ينتظر العقدة 1 حتى ثانيتين، حتى عبر إعادة تشغيلها
// (maxRetriesPerRequest: null): الرمز يستحق الانتظار، بخلاف صوت عقدة واحدة،
// والرمز المأخوذ من عدّاد عقدة أخرى لن يتبع ترتيب المنح.
const counter = new Redis({ host: 'redis-1.internal', port: 6379, commandTimeout: 2000, maxRetriesPerRequest: null });
counter.on('error', () => undefined);

const TTL_MS = 2000;
const SEND_MS = 800;

// المورد يتحقق من الرمز، فلم يعد الأمان متوقفًا على التوقيت:
// يُرفَض الكاتب المتقادم مهما طال نومه. والمخزن خدمة بعيدة، لذا
// يصل الرفض في صورة وعد مرفوض.
async function fencedWrite(key: string, value: string, token: number): Promise<boolean> {
  try {
    await lab.store.write(key, value, token);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'EFENCED') return false;
    throw error;
  }
}

const lock = await redlock.acquire(['lock:invoice-2024-06'], TTL_MS);
const token = Number(await counter.incr('fencing:invoice-2024-06'));
lab.log(`lock granted with fencing token ${token}`);
try {
  await lab.sleep(800); // توليد ملف PDF
  // لا فحص للصلاحية هذه المرة (فحص الدرس 6 كان سيوفّر بعض العمل،
  // لكن الأمان لم يعد قائمًا عليه). الإرسال هو القسم الحرج،
  // وخطوته الأخيرة تسجّل الفاتورة.
  const accepted = await lab.job('send-invoice').run(SEND_MS, () =>
    fencedWrite('invoice-2024-06', `sent by Client ${lab.client}`, token),
  );
  lab.log(accepted ? 'invoice recorded' : `fenced off: token ${token} is stale`);
} finally {
  await lock.release().catch(() => undefined);
}
await redlock.quit().catch(() => undefined);
await counter.quit().catch(() => undefined);
