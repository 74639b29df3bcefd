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
const nodes = [1, 2, 3, 4, 5].map((i) => new Redis({ host: \`redis-\${i}.internal\`, port: 6379, commandTimeout: 500 }));
for (const node of nodes) node.on('error', () => undefined);
const redlock = new Redlock(nodes, { driftFactor: 0.01, retryCount: 0 });
const single = nodes[0]!;

// Deletes the key only while it still holds our token (the write-up's release script).
const RELEASE = 'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end';

async function sendInvoices(day: number): Promise<void> {
  const job = lab.job(\`send-invoices day \${day}\`);
  const key = \`lock:\${EXPERIMENT.lock}:send-invoices:day-\${day}\`;
  if (EXPERIMENT.lock === 'none') {
    await job.run(EXPERIMENT.jobMs);
    return;
  }
  if (EXPERIMENT.lock === 'single-node') {
    const token = randomUUID();
    if ((await single.set(key, token, 'PX', EXPERIMENT.ttlMs, 'NX')) !== 'OK') return; // another worker has it: skip today
    try {
      await job.run(EXPERIMENT.jobMs);
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
    await job.run(EXPERIMENT.jobMs);
  } finally {
    await lock.release().catch(() => undefined);
  }
}

// Cron "0 6 * * *" on the wall clock every worker shares: day 1 starts at the next whole day. Like cron, each
// morning fires on its own timer, whether or not the day before has finished.
const first = Math.ceil((Date.now() + EXPERIMENT.dayMs) / EXPERIMENT.dayMs) * EXPERIMENT.dayMs;
const mornings: Promise<void>[] = [];
for (let day = 1; day <= EXPERIMENT.days; day++) {
  // Each worker wakes a little after 06:00 by its own clock and daemon.
  const wakeAt = first + (day - 1) * EXPERIMENT.dayMs + EXPERIMENT.fireAtMs + Math.random() * EXPERIMENT.wakeSpreadMs;
  mornings.push(lab.sleep(Math.max(0, wakeAt - Date.now())).then(() => sendInvoices(day)));
}
await Promise.all(mornings);
nodes.forEach((node) => node.disconnect());
`;

/** The variant's program: the settings, then the one body every variant shares. */
export function experimentProgram(variant: ExperimentVariant): string {
  const settings = { lock: variant.lock, ...CALENDAR };
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
