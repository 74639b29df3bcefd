// الدرس 8 — اختيار القفل، بالأرقام.
// خمسة عمّال يطلقون التقرير اليومي نفسه في اللحظة نفسها (قصة مهمة cron في التقرير
// الإنتاجي العربي). الجزء 1 يقيس ما يكلّفه القفل: زمن الحصول عليه على عقدة واحدة
// وعلى خمس عقد (Redlock). الجزء 2 يشغّل التقرير، ويجب أن يُنفَّذ مرة واحدة يوميًا.
import Redis from 'ioredis';
import Redlock from 'redlock';
import { randomUUID } from 'crypto';
import lab from 'lab';

const nodes = [1, 2, 3, 4, 5].map((i) => new Redis({ host: `redis-${i}.internal`, port: 6379, commandTimeout: 500 }));
for (const node of nodes) node.on('error', () => undefined);
const redlock = new Redlock(nodes, { driftFactor: 0.01, retryCount: 0 });
const single = nodes[0]!;
const DAY = '2024-06-01';

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

function summary(name: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const f = (p: number) => percentile(sorted, p).toFixed(2);
  return `${name}: P50 ${f(50)} ms · P95 ${f(95)} ms · P99 ${f(99)} ms (${samples.length} acquires)`;
}

// الجزء 1: القياس. لكل عميل مفتاحه الخاص، فهذه كلفة القفل نفسه،
// لا كلفة انتظار عميل آخر. وبين الجولات فاصل قصير كي لا نُثقل على العقد.
async function measure(rounds: number): Promise<void> {
  const oneNode: number[] = [];
  const fiveNodes: number[] = [];
  let failed = 0;
  let slow = 0;
  for (let i = 0; i < rounds; i++) {
    const key = `bench:${lab.client}`;
    let t = performance.now();
    const token = randomUUID();
    try {
      await single.set(key, token, 'PX', 1000, 'NX');
      oneNode.push(performance.now() - t);
      await single.del(key);
    } catch {
      // أمر تجاوز مهلته على عقدة مشغولة: أداة القياس تعدّه، ولا تُسقط العامل.
      slow++;
    }
    t = performance.now();
    try {
      const lock = await redlock.acquire([`${key}:redlock`], 1000);
      fiveNodes.push(performance.now() - t);
      await lock.release();
    } catch {
      // قد تجعل عقدةٌ بطيئة محاولةً واحدة تفوّت النصاب (quorum): أداة القياس تعدّ ذلك، ولا تنهار.
      failed++;
    }
    await lab.sleep(15);
  }
  // كل العمّال يقيسون، فتتنافس كل عملية حصول مع عمليات العمّال الآخرين كما في بيئة
  // الإنتاج؛ والعميل 1 وحده يطبع أرقامه، فتعرضها وحدة التحكم مرة واحدة لا خمس مرات.
  if (lab.client !== 1) return;
  lab.log(summary('single node', oneNode) + (slow ? ` — ${slow} command(s) timed out` : ''));
  lab.log(summary('Redlock, 5 nodes', fiveNodes) + (failed ? ` — ${failed} attempt(s) missed the quorum` : ''));
  lab.log('the Arabic production write-up (Redlock, 5 nodes): P50 3.2 ms · P95 8.7 ms · P99 14.1 ms');
}

// التمرين: اجعل التقرير اليومي يُنفَّذ مرة واحدة في اليوم عبر كل العمّال.
// خذ قفل Redlock (قيمة retryCount هي 0: إن كان القفل مع غيرك فتخطَّ اليوم)،
// وداخل القفل تحقّق من اليوم في المخزن وسجّله (await lab.store.read /
// await lab.store.write: المخزن خدمة بعيدة، واستدعاءاته تُجيب بوعود)، حتى
// يتخطى اليومَ أيضًا العاملُ الذي يصل بعد أن ينتهي الأول.
async function runDailyReportOnce(): Promise<void> {
  await lab.job('daily-report').run(300);
}

await measure(40);
await runDailyReportOnce();
await redlock.quit().catch(() => undefined);
