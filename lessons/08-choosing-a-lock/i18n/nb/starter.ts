// Leksjon 8 – å velge lås, med tall.
// Fem workere starter den samme daglige rapporten samtidig (cron-historien i den
// arabiske produksjonsrapporten). Del 1 måler hva en lås koster: tiden det tar å ta
// låsen på én node og på fem (Redlock). Del 2 kjører rapporten – som skal skje én gang om dagen.
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

// Del 1: mål. Hver klient bruker sin egen nøkkel, så dette er hva selve låsen
// koster, ikke ventetid på noen andre. Med små pauser imellom, for å være høflig.
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
      // En kommando som går ut på tid på en travel node: en benchmark teller den, den krasjer ikke workeren.
      slow++;
    }
    t = performance.now();
    try {
      const lock = await redlock.acquire([`${key}:redlock`], 1000);
      fiveNodes.push(performance.now() - t);
      await lock.release();
    } catch {
      // En treg node kan gjøre at ett enkelt forsøk ikke når quorum: en benchmark teller det, den krasjer ikke.
      failed++;
    }
    await lab.sleep(15);
  }
  // Alle workerne måler, så hvert låseforsøk konkurrerer med de andre workernes, slik det ville gjort
  // i produksjon; bare Klient 1 skriver ut tallene, så konsollen viser dem én gang, ikke fem.
  if (lab.client !== 1) return;
  lab.log(summary('single node', oneNode) + (slow ? ` — ${slow} command(s) timed out` : ''));
  lab.log(summary('Redlock, 5 nodes', fiveNodes) + (failed ? ` — ${failed} attempt(s) missed the quorum` : ''));
  lab.log('the Arabic production write-up (Redlock, 5 nodes): P50 3.2 ms · P95 8.7 ms · P99 14.1 ms');
}

// OPPGAVE: sørg for at den daglige rapporten kjøres én gang om dagen på tvers av alle workere.
// Ta en Redlock-lås (retryCount er 0: har noen andre den, hopper du over i dag),
// og inne i den sjekker og registrerer du dagen i lageret (await lab.store.read /
// await lab.store.write: lageret er eksternt, kallene svarer med promises), så en
// worker som kommer etter at den første er ferdig, også hopper over.
async function runDailyReportOnce(): Promise<void> {
  await lab.job('daily-report').run(300);
}

await measure(40);
await runDailyReportOnce();
await redlock.quit().catch(() => undefined);
