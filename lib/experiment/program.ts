/**
 * The program and the scenario of each variant of lesson 8's experiment.
 * One program for all of them (the lock is a setting at its top), written as
 * the write-up's cron job is: wake at 06:00, take the lock or skip the day,
 * run the job, release. The scenario sets every link's delay before the
 * program starts (setup steps), so the network is in place from the first
 * command.
 */
import type { Scenario, ScenarioStep } from '../scenario';
import { CALENDAR, LINK_DELAY, type ExperimentVariant } from './design';

/** What the checker is told of every variant's run: each day's job is expected once, anything more is a duplicate. */
export const EXPERIMENT_CHECKER = { expectedExecutions: 1 } as const;

/** The job's name on a given day: the checker expects each day's job to run once. */
export const jobName = (day: number): string => `send-invoices day ${day}`;
export const JOB_PREFIX = 'send-invoices day ';

const BODY = `
const nodes = [1, 2, 3, 4, 5].map((i) => new Redis({ host: \`redis-\${i}.internal\`, port: 6379, commandTimeout: 2000 }));
for (const node of nodes) node.on('error', () => undefined);
const redlock = new Redlock(nodes, { driftFactor: 0.01, retryCount: 0 });
const single = nodes[0]!;

// Deletes the key only while it still holds our token (the write-up's release script).
const RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end';

// The job, then the lock kept until the rest of the morning has passed (a worker woken late still finds it taken).
async function runHoldingLock(job, wokeAt: number): Promise<void> {
  await job.run(EXPERIMENT.jobMs);
  const rest = wokeAt + EXPERIMENT.holdMs - Date.now();
  if (rest > 0) await lab.sleep(rest);
}

async function sendInvoices(day: number): Promise<void> {
  const wokeAt = Date.now();
  const job = lab.job(\`send-invoices day \${day}\`);
  const key = \`lock:\${EXPERIMENT.variant}:send-invoices:day-\${day}\`;
  if (EXPERIMENT.lock === 'none') {
    await job.run(EXPERIMENT.jobMs);
    return;
  }
  if (EXPERIMENT.lock === 'single-node') {
    const token = randomUUID();
    // Another worker has it (or no answer in time: this worker cannot know it has it): skip today.
    const granted = await single.set(key, token, 'PX', EXPERIMENT.ttlMs, 'NX').catch(() => null);
    if (granted !== 'OK') return;
    try {
      await runHoldingLock(job, wokeAt);
    } finally {
      await single.eval(RELEASE, 1, key, token).catch(() => undefined);
    }
    return;
  }
  let lock;
  try {
    lock = await redlock.acquire([key], EXPERIMENT.ttlMs);
  } catch {
    return; // no majority: another worker has it, skip today
  }
  try {
    await runHoldingLock(job, wokeAt);
  } finally {
    await lock.release().catch(() => undefined);
  }
}

// Cron "0 6 * * *" on the wall clock every worker shares. The workers agree on when day 1 begins: the first to
// ask proposes the next whole day, the others read it (a worker that started a little later would otherwise count
// its days from the day after, and run "day 2" on everyone else's day 3).
const AGREE = 'if redis.call("EXISTS", KEYS[1]) == 0 then redis.call("SET", KEYS[1], ARGV[1], "PX", 5000) end return redis.call("GET", KEYS[1])';
const proposed = Math.ceil((Date.now() + 2 * EXPERIMENT.dayMs) / EXPERIMENT.dayMs) * EXPERIMENT.dayMs;
let first = NaN;
for (let tries = 0; Number.isNaN(first) && tries < 5; tries++) {
  first = Number(await single.eval(AGREE, 1, \`experiment:\${EXPERIMENT.variant}:day-1\`, String(proposed)).catch(() => NaN));
}
if (Number.isNaN(first)) throw new Error('Node 1 did not answer: the workers could not agree when day 1 begins');
for (let day = 1; day <= EXPERIMENT.days; day++) {
  // Each worker wakes a little after 06:00 by its own clock and daemon.
  const wakeAt = first + (day - 1) * EXPERIMENT.dayMs + EXPERIMENT.fireAtMs + Math.random() * EXPERIMENT.wakeSpreadMs;
  const wait = wakeAt - Date.now();
  // A worker held back (a busy machine) runs a morning late rather than never: every worker tries every morning.
  if (wait > 0) await lab.sleep(wait);
  await sendInvoices(day);
}
nodes.forEach((node) => node.disconnect());
`;

/** The variant's program: the settings, then the one body every variant shares. */
export function experimentProgram(variant: ExperimentVariant): string {
  const settings = { variant: variant.id, lock: variant.lock, ...CALENDAR };
  return `// The Arabic production write-up's experiment, compressed: ${CALENDAR.workers} cron workers send the
// invoices at 06:00 every day for ${CALENDAR.days} days. A day lasts ${CALENDAR.dayMs} ms here; the job ${CALENDAR.jobMs} ms.
// Variant: ${variant.label} (${variant.description}).
import Redis from 'ioredis';
import Redlock from 'redlock';
import { randomUUID } from 'crypto';
import lab from 'lab';

const EXPERIMENT = ${JSON.stringify(settings)};
${BODY}`;
}

/** Every client × node link delayed (or not) before the program starts: lab faults at 0 ms are setup steps. */
export function experimentScenario(variant: ExperimentVariant, seed: number, nodes = 5): Scenario {
  // The undelayed variant sets every delay to 0: the lab is not rebuilt between variants, so it undoes the last one's.
  const delay = variant.delayedLinks ? LINK_DELAY : { delayMs: 0, jitterMs: 0 };
  const steps: ScenarioStep[] = [];
  for (let client = 1; client <= CALENDAR.workers; client++)
    for (let node = 1; node <= nodes; node++) steps.push({ at: 0, action: 'link-delay', client, node, ...delay });
  return {
    id: `experiment-${variant.id}`,
    title: `Experiment: ${variant.label}`,
    description: variant.delayedLinks
      ? `Every link delayed ${LINK_DELAY.delayMs}–${LINK_DELAY.delayMs + LINK_DELAY.jitterMs} ms each way; ${CALENDAR.workers} workers, ${CALENDAR.days} compressed days.`
      : `Every link's delay set to 0 (plain loopback); ${CALENDAR.workers} workers, ${CALENDAR.days} compressed days.`,
    seed,
    clients: CALENDAR.workers,
    staggerMs: 0,
    jitterMs: 0,
    steps,
  };
}
