// الدرس 5 — العامل نفسه مع مكتبة `redlock` (بأسلوب درس الدورة النرويجي).
// تحصل redlock.using() على القفل من أغلبية العقد، وتمدّده ما دامت الدالة تعمل،
// وتحرّره في النهاية؛ ويدل signal.aborted على أن القفل قد فُقد.
import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';

const nodes = [1, 2, 3, 4, 5].map((i) => new Redis({ host: `redis-${i}.internal`, port: 6379, commandTimeout: 100 }));
for (const node of nodes) node.on('error', () => undefined); // سقوط عقدة أمر متوقع هنا: فهي تصوّت بالرفض فحسب
const redlock = new Redlock(nodes, {
  driftFactor: 0.01, // هامش انحراف الساعة: TTL × 1 % + 2 ms
  retryCount: 20,
  retryDelay: 100, // الفاصل بين محاولة وأخرى بالـ ms …
  retryJitter: 50, // … زائدًا أو ناقصًا حتى هذا القدر، كي لا يعيد العملاء المحاولة في اللحظة نفسها
});

await lab.sleep(150); // تحميل فواتير اليوم قبل أخذ القفل
try {
  await redlock.using(['lock:send-invoices'], 3000, async (signal) => {
    await lab.job('send-invoices').run(1500);
    if (signal.aborted) throw signal.error; // فُقد القفل أثناء عملنا
  });
} catch (error) {
  lab.log(`could not finish under the lock: ${(error as Error).message}`);
}
await redlock.quit().catch(() => undefined); // العقد المتوقفة لا تستطيع أن تودّع
