/**
 * Failure demos an instructor can run on the classroom's lab with one click:
 * three built-in ones (written here, program and scenario) and every lesson's
 * scenarios. A demo resolves to a run: program, scenario (with the chosen
 * seed), topology and checker settings, started fresh so it replays exactly.
 */
import type { Topology } from '@/lib/cluster';
import { DEFAULT_TOPOLOGY } from '@/lib/cluster';
import { BUILTIN_DEMO_KEYS, type DemoRef, type DemoSummary } from '@/lib/classroom';
import { english } from '@/lib/checker/said';
import { words } from '@/lib/words';
import { LabOperationError } from '@/lib/result';
import { parseCommand } from '@/lib/commands';
import type { RunStart } from '../runs/lab-runs';
import { scenarioSchema, type Scenario, type Trigger } from '@/lib/scenario';
import { allLessons, lessonBySlug } from '../grading/lesson-registry';
import { refusal } from '@/lib/refusal-words';

interface BuiltinDemo {
  id: keyof typeof BUILTIN_DEMO_KEYS;
  title: string;
  description: string;
  role: DemoSummary['role'];
  topology: Topology;
  code: string;
  scenario: Scenario;
  checker: RunStart['checker'];
}

/**
 * Redlock over five independent masters. With `fenced`, the protected write
 * carries a fencing token (INCR on Node 1) and the store refuses a stale one.
 */
const redlockProgram = (ttlMs: number, jobMs: number, fenced: boolean) => `import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';

const clients = [1, 2, 3, 4, 5].map((n) => new Redis({ host: \`redis-\${n}.internal\`, commandTimeout: 500 }));
const redlock = new Redlock(clients, { retryCount: 60, retryDelay: 50, retryJitter: 20 });

const lock = await redlock.acquire(['lock:invoice:42'], ${ttlMs});
${fenced ? "const token = await clients[0].incr('fence:invoice:42');\n" : ''}// ${jobMs} ms of work, then the write that must happen once at a time.
await lab.job('charge-invoice').run(${jobMs}, async () => {
${
  fenced
    ? "  try {\n    await lab.store.write('invoice:42', 'charged by client ' + lab.client, token);\n  } catch (e) {\n    lab.log('my write was fenced off: ' + e.message);\n  }"
    : "  await lab.store.write('invoice:42', 'charged by client ' + lab.client, null);"
}
});
await lock.release().catch(() => undefined);
for (const c of clients) c.disconnect();
`;

/** Two workers behind "Sentinel": each writes to the master, or to the replica promoted in its place. */
const failoverProgram = `import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';

const nodes = [1, 2].map((n) => new Redis({ host: \`redis-\${n}.internal\`, commandTimeout: 500 }));
const KEY = 'lock:send-invoices';
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

// The first node that accepts the write: the master, or the replica promoted after a failover.
async function onMaster(command) {
  let last;
  for (const redis of nodes) {
    try { return await command(redis); } catch (error) { last = error; }
  }
  throw last;
}

const token = randomUUID();
const giveUpAt = Date.now() + 8000;
while ((await onMaster((r) => r.set(KEY, token, 'PX', 5000, 'NX')).catch(() => null)) !== 'OK') {
  if (Date.now() > giveUpAt) throw new Error('gave up waiting for the lock');
  await lab.sleep(80 + Math.floor(Math.random() * 40));
}
try {
  await lab.job('send-invoices').run(2000);
} finally {
  await onMaster((r) => r.eval(RELEASE, 1, KEY, token)).catch(() => undefined);
}
for (const redis of nodes) redis.disconnect();
`;

/**
 * Client 2 waits (paused from the moment Client 1 starts, 8 s at most) until Client 1 has `moment`: the
 * demo then shows its point whichever client a busy server would have let in first.
 */
const client2Waits = (moment: Trigger) => [
  { at: 0, when: { on: 'client-start', client: 1 }, action: 'client-pause', client: 2, durationMs: 8_000 },
  { at: 0, when: moment, action: 'client-resume', client: 2 },
] as const;

const pauseScenario = (id: string, title: string, description: string): Scenario =>
  scenarioSchema.parse({
    id,
    title,
    description,
    seed: 1,
    clients: 2,
    staggerMs: 100,
    // Client 1 stops 300 ms into its 1.5 s job and sleeps until Client 2 has done its own (8 s at most): its
    // 1 s lock expires meanwhile, Client 2 takes it, and Client 1 wakes up with most of its work still to do.
    steps: [
      ...client2Waits({ on: 'lock-acquired', client: 1, nth: 1 }),
      { at: 300, when: { on: 'job-enter', client: 1 }, action: 'client-pause', client: 1, durationMs: 8_000 },
      { at: 0, when: { on: 'job-exit', client: 2 }, action: 'client-resume', client: 1 },
    ],
  });

/** A built-in demo's words in English, from the catalogue the pages translate (demos.json). */
const said = (id: BuiltinDemo['id'], part: 'title' | 'description' | 'scenario'): string => english(words(`demos.builtin.${BUILTIN_DEMO_KEYS[id]}.${part}`));

export const BUILTIN_DEMOS: readonly BuiltinDemo[] = [
  {
    id: 'gc-pause-breaks-redlock',
    title: said('gc-pause-breaks-redlock', 'title'),
    description: said('gc-pause-breaks-redlock', 'description'),
    role: 'break',
    topology: DEFAULT_TOPOLOGY,
    code: redlockProgram(1_000, 1_500, false),
    scenario: pauseScenario('gc-pause-breaks-redlock', said('gc-pause-breaks-redlock', 'title'), said('gc-pause-breaks-redlock', 'scenario')),
    checker: { lockKeys: ['lock:invoice:42'] },
  },
  {
    id: 'failover-loses-the-lock',
    title: said('failover-loses-the-lock', 'title'),
    description: said('failover-loses-the-lock', 'description'),
    role: 'break',
    topology: { kind: 'replicated', nodes: 2, persistence: 'none' },
    code: failoverProgram,
    scenario: scenarioSchema.parse({
      id: 'failover-loses-the-lock',
      title: said('failover-loses-the-lock', 'title'),
      description: said('failover-loses-the-lock', 'scenario'),
      seed: 1,
      clients: 2,
      staggerMs: 200,
      steps: [
        { at: 0, action: 'replication-hold' },
        ...client2Waits({ on: 'job-enter', client: 1, nth: 1 }),
        { at: 200, when: { on: 'job-enter', client: 1 }, action: 'failover' },
      ],
    }),
    checker: { livenessBoundMs: 3_000, lockKeys: ['lock:send-invoices'] },
  },
  {
    id: 'fencing-saves-the-day',
    title: said('fencing-saves-the-day', 'title'),
    description: said('fencing-saves-the-day', 'description'),
    role: 'fix',
    topology: DEFAULT_TOPOLOGY,
    code: redlockProgram(1_000, 1_500, true),
    scenario: pauseScenario('fencing-saves-the-day', said('fencing-saves-the-day', 'title'), said('fencing-saves-the-day', 'scenario')),
    checker: { lockKeys: ['lock:invoice:42'] },
  },
];

export interface ResolvedDemo {
  title: string;
  seed: number;
  /** Parsed here, as a browser's run:start is at the socket: the built-in demos are checked like anything else. */
  run: RunStart & { topology: Topology };
}

/** The run a demo stands for, with `seed` (or the scenario's own) in place. */
export function resolveDemo(ref: DemoRef, seed: number | undefined): ResolvedDemo {
  if ('builtin' in ref) {
    const demo = BUILTIN_DEMOS.find((d) => d.id === ref.builtin);
    if (!demo) throw new LabOperationError('not-found', refusal('lesson.noBuiltinDemo', { name: ref.builtin }));
    const scenario = { ...demo.scenario, seed: seed ?? demo.scenario.seed };
    const run = parseCommand('run:start', { code: demo.code, scenario, topology: demo.topology, fresh: true, checker: demo.checker });
    return { title: demo.title, seed: scenario.seed, run: { ...run, topology: demo.topology } };
  }
  const lesson = lessonBySlug(ref.lesson);
  const entry = lesson.lessonScenarios.find((s) => s.id === ref.scenario);
  if (!entry) throw new LabOperationError('not-found', refusal('lesson.noScenario', { lesson: lesson.slug, scenario: ref.scenario }));
  const scenario = { ...entry.scenario, seed: seed ?? entry.scenario.seed };
  return {
    title: `${lesson.title}: ${entry.scenario.title}`,
    seed: scenario.seed,
    run: { ...parseCommand('run:start', { code: entry.code, scenario, topology: lesson.topology, fresh: true, checker: { ...lesson.checker, ...entry.checker } }), topology: lesson.topology },
  };
}

/** Every demo, built-in first, then each lesson's scenarios in course order. */
export function listDemos(): DemoSummary[] {
  const builtin: DemoSummary[] = BUILTIN_DEMOS.map((d) => ({
    ref: { builtin: d.id },
    title: d.title,
    description: d.description,
    role: d.role,
    lesson: null,
    seed: d.scenario.seed,
  }));
  const fromLessons: DemoSummary[] = allLessons().flatMap((lesson) =>
    lesson.lessonScenarios.map((entry) => ({
      ref: { lesson: lesson.slug, scenario: entry.id },
      title: entry.scenario.title,
      description: entry.note ?? entry.scenario.description,
      role: entry.role,
      lesson: { slug: lesson.slug, title: lesson.title },
      seed: entry.scenario.seed,
    })),
  );
  return [...builtin, ...fromLessons];
}

/** Throws not-found unless `lesson` (and `scenario`, if given) exist: "follow me" must point somewhere real. */
export function assertFollowTarget(lesson: string, scenario: string | null): void {
  const found = lessonBySlug(lesson);
  if (scenario !== null && !found.lessonScenarios.some((s) => s.id === scenario))
    throw new LabOperationError('not-found', refusal('lesson.noScenario', { lesson: found.slug, scenario }));
}
