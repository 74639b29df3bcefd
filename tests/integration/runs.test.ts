/**
 * Learner programs run as real clients against a real lab (nodes, links,
 * nemesis) and are judged by the checker — the whole path of a run except the
 * socket. Broken programs must be caught and explained; fixed ones must hold.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from '@/lib/commands';
import type { RunEnded, RunStartInput } from '@/lib/run';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import { fault, startLab } from './lab-fixture';

let pool: SandboxPool;
beforeAll(async () => {
  pool = createSandboxPool({ warmWorkers: 1 });
  await pool.whenWarm();
});
afterAll(async () => {
  await pool?.close();
});

async function run(input: RunStartInput, topology: Parameters<typeof startLab>[0] = {}): Promise<RunEnded> {
  const lab = await startLab(topology);
  const runs = new LabRuns(lab, pool);
  const ended = new Promise<RunEnded>((resolve) => runs.once('ended', resolve));
  await runs.start(parseCommand('run:start', input));
  return ended;
}

const diagnosisKinds = (ended: RunEnded) => ended.verdict.diagnoses.map((d) => d.kind);

/** Each client takes the lock with SET NX PX, works for `jobMs`, and releases with `release`. */
const singleNode = (ttlMs: number, jobMs: number, release: 'del' | 'lua') => `
import Redis from 'ioredis';
import { randomUUID } from 'crypto';
import lab from 'lab';
const redis = new Redis({ host: 'redis-1.internal', port: 6379 });
const key = 'lock:invoice:42';
const token = randomUUID();
while ((await redis.set(key, token, 'PX', ${ttlMs}, 'NX')) !== 'OK') await lab.sleep(5);
await lab.job('charge-invoice').run(${jobMs});
${
  release === 'del'
    ? 'await redis.del(key);'
    : `await redis.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end", 1, key, token);`
}
await redis.quit();
`;

/** Redlock over the lab's five nodes; with `fenced`, the protected write carries a token from INCR on Node 1. */
const redlockProgram = (ttlMs: number, jobMs: number, fenced: boolean) => `
import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';
const clients = [1, 2, 3, 4, 5].map((n) => new Redis({ host: \`redis-\${n}.internal\`, commandTimeout: 200 }));
const redlock = new Redlock(clients, { retryCount: 60, retryDelay: 50, retryJitter: 20 });
const lock = await redlock.acquire(['lock:invoice:42'], ${ttlMs});
${fenced ? "const token = await clients[0].incr('fence:invoice:42');" : ''}
// The protected work: ${jobMs} ms of "charging", then the write, inside the critical section.
await lab.job('charge-invoice').run(${jobMs}, async () => {
${
  fenced
    ? "  try { await lab.store.write('invoice:42', 'charged by client ' + lab.client, token); } catch (e) { lab.log('my write was fenced off: ' + e.message); }"
    : "  await lab.store.write('invoice:42', 'charged by client ' + lab.client, null);"
}
});
await lock.release().catch(() => undefined);
for (const c of clients) c.disconnect();
`;

describe('runs judged by the checker', () => {
  it('plain DEL after expiry: violated, explained as a short TTL and a foreign release', async () => {
    const ended = await run({ code: singleNode(80, 150, 'del'), clients: 3 });
    expect(ended.outcome.status).toBe('completed');
    expect(ended.verdict.valid).toBe('violated');
    expect(ended.verdict.checks['mutual-exclusion'].valid).toBe('violated');
    expect(ended.verdict.counterExample?.message).toMatch(/Client \d/);
    expect(diagnosisKinds(ended)).toContain('ttl-shorter-than-job');
    expect(diagnosisKinds(ended)).toContain('release-deleted-foreign-lock');
    const ttl = ended.verdict.diagnoses.find((d) => d.kind === 'ttl-shorter-than-job')!;
    // A 150 ms job, as the lab clock saw its two ends: a timer and a clock of millisecond grain can make it 149 ms.
    expect(ttl.message).toMatch(/TTL 80 ms is shorter than the 1(49|[5-9]\d) ms critical section/);
  });

  it("a later run in the same lab tells its times from its own start, as its timeline does", async () => {
    const lab = await startLab({});
    const runs = new LabRuns(lab, pool);
    const runOnce = async (input: RunStartInput) => {
      const ended = new Promise<RunEnded>((resolve) => runs.once('ended', resolve));
      const info = await runs.start(parseCommand('run:start', input));
      return { info, ended: await ended };
    };
    // The lab clock moves on by a first run of 1.5 s.
    await runOnce({ code: "import lab from 'lab';\nawait lab.sleep(1500);", clients: 1 });
    const { info, ended } = await runOnce({ code: singleNode(80, 150, 'del'), clients: 3 });
    expect(info.startedAt).toBeGreaterThan(1_500);
    expect(ended.verdict.valid).toBe('violated');
    const said = [...(ended.verdict.counterExample?.message ?? '').matchAll(/at (\d+(?:\.\d+)?) (ms|s)\b/g)].map((m) => Number(m[1]) * (m[2] === 's' ? 1000 : 1));
    expect(said.length).toBeGreaterThan(0);
    for (const t of said) expect(t).toBeLessThanOrEqual(ended.outcome.durationMs + 50);
    // The band stays on the lab clock, where the history is.
    expect(ended.verdict.counterExample?.window.from).toBeGreaterThanOrEqual(info.startedAt);
  });

  it('a TTL shorter than the job with a token-checked release: still violated (nothing extends it)', async () => {
    const ended = await run({ code: singleNode(80, 150, 'lua'), clients: 3 });
    expect(ended.verdict.valid).toBe('violated');
    expect(diagnosisKinds(ended)).toContain('ttl-shorter-than-job');
    expect(diagnosisKinds(ended)).not.toContain('release-deleted-foreign-lock');
  });

  it('a TTL longer than the job with a token-checked release: held', async () => {
    const ended = await run({ code: singleNode(2_000, 40, 'lua'), clients: 3 });
    expect(ended.outcome.clients.map((c) => c.status)).toEqual(['exited', 'exited', 'exited']);
    expect(ended.verdict.valid).toBe('held');
    expect(ended.verdict.stats.sections).toBe(3);
  });

  it('Redlock with a client paused beyond its validity: violated, explained as the pause', async () => {
    const ended = await run({
      code: redlockProgram(600, 300, false),
      clients: 2,
      scenario: {
        id: 'gc-pause',
        title: 'GC pause breaks Redlock',
        clients: 2,
        staggerMs: 100,
        // Aimed at moments, not clock times, so a busy machine cannot reorder it: Client 2 waits for Client 1's
        // lock, and Client 1 stops 100 ms into its job, for 1.2 s (its 600 ms lock expires meanwhile).
        steps: [
          { at: 0, when: { on: 'client-start', client: 1 }, action: 'client-pause', client: 2, durationMs: 8_000 },
          { at: 0, when: { on: 'lock-acquired', client: 1 }, action: 'client-resume', client: 2 },
          { at: 100, when: { on: 'job-enter', client: 1 }, action: 'client-pause', client: 1, durationMs: 1_200 },
        ],
      },
    });
    expect(ended.verdict.valid).toBe('violated');
    expect(diagnosisKinds(ended)).toContain('pause-beyond-validity');
    const pause = ended.verdict.diagnoses.find((d) => d.kind === 'pause-beyond-validity')!;
    expect(pause.message).toMatch(/Client 1 was paused 1\.2 s, longer than the \d+ ms left of its \d+ ms validity/);
  });

  it('Redlock with two of five nodes killed: held', async () => {
    const ended = await run({
      code: redlockProgram(2_000, 40, false),
      clients: 3,
      scenario: {
        id: 'kill-two',
        title: 'Kill two nodes',
        clients: 3,
        staggerMs: 30,
        steps: [
          { at: 0, action: 'node-kill', node: 4 },
          { at: 0, action: 'node-kill', node: 5 },
        ],
      },
    });
    expect(ended.outcome.clients.map((c) => c.status)).toEqual(['exited', 'exited', 'exited']);
    expect(ended.verdict.valid).toBe('held');
    expect(ended.verdict.stats.sections).toBe(3);
  });

  it('the fenced store under the same pause: the stale write is rejected and safety holds', async () => {
    const ended = await run({
      code: redlockProgram(600, 300, true),
      clients: 2,
      scenario: {
        id: 'fencing-saves',
        title: 'Fencing saves the day',
        clients: 2,
        staggerMs: 100,
        // Aimed at moments, not clock times, so a busy machine cannot reorder it: Client 2 waits for Client 1's
        // lock, and Client 1 stops 100 ms into its job, for 1.2 s (its 600 ms lock expires meanwhile).
        steps: [
          { at: 0, when: { on: 'client-start', client: 1 }, action: 'client-pause', client: 2, durationMs: 8_000 },
          { at: 0, when: { on: 'lock-acquired', client: 1 }, action: 'client-resume', client: 2 },
          { at: 100, when: { on: 'job-enter', client: 1 }, action: 'client-pause', client: 1, durationMs: 1_200 },
        ],
      },
    });
    expect(ended.verdict.checks.fencing.valid).toBe('held');
    expect(ended.verdict.savedByFencing.count).toBeGreaterThanOrEqual(1);
    expect(ended.verdict.valid).toBe('held');
  });

  it("the Arabic production write-up's ioredis Redlock module with its cron job runs unchanged: held", async () => {
    const code = fs.readFileSync(path.join(__dirname, 'fixtures/sandbox-arabic-write-up.learner.txt'), 'utf8');
    const ended = await run({ code, clients: 3, checker: { expectedExecutions: 1 } });
    expect(ended.outcome.clients.map((c) => c.status)).toEqual(['exited', 'exited', 'exited']);
    expect(ended.verdict.valid).toBe('held');
    expect(ended.verdict.checks.duplicates.valid).toBe('held');
  });

  it("the Norwegian course lesson's node-redis lock, Lua release, watchdog and redlock.using run unchanged: held", async () => {
    const code = fs.readFileSync(path.join(__dirname, 'fixtures/sandbox-norwegian-course.learner.txt'), 'utf8');
    const ended = await run({ code, clients: 3 });
    expect(ended.outcome.clients.map((c) => c.status)).toEqual(['exited', 'exited', 'exited']);
    expect(ended.verdict.valid).toBe('held');
    // One client wins the single-node lock; all three charge invoice 7 one after another through Redlock.
    expect(ended.verdict.stats.sections).toBe(4);
  });

  it('a syntax error ends the run before it starts, at the learner line', async () => {
    const lab = await startLab({ nodes: 1 });
    const runs = new LabRuns(lab, pool);
    const diagnostics: { line: number }[] = [];
    runs.on('diagnostic', (d) => diagnostics.push(d));
    const ended = new Promise<RunEnded>((resolve) => runs.once('ended', resolve));
    await runs.start({ code: 'const a = 1;\nconst b = ;\n', clients: 2 });
    expect((await ended).outcome.status).toBe('syntax-error');
    expect(diagnostics[0]?.line).toBe(2);
  });
});

describe('the run\'s seed', () => {
  it('is reported in RunInfo (drawn, asked for, or the scenario\'s) and replays the clients\' Math.random()', async () => {
    const lab = await startLab({ nodes: 1 });
    const runs = new LabRuns(lab, pool);
    const code = "import lab from 'lab';\nlab.log(String(Math.random()));";
    const once = async (input: Omit<RunStartInput, 'code'>) => {
      const ended = new Promise<RunEnded>((resolve) => runs.once('ended', resolve));
      const info = await runs.start(parseCommand('run:start', { code, ...input }));
      await ended;
      const line = lab.history.since().filter((e) => e.runId === info.runId && e.type === 'console' && e.client === 1);
      return { info, line: line.map((e) => (e.type === 'console' ? e.text : ''))[0] };
    };
    const drawn = await once({ clients: 1 });
    expect(Number.isInteger(drawn.info.seed)).toBe(true);
    const replayed = await once({ clients: 1, seed: drawn.info.seed });
    expect(replayed.info.seed).toBe(drawn.info.seed);
    expect(replayed.line).toBe(drawn.line);
    const scenario = { id: 'quiet', title: 'Quiet', seed: 99, clients: 1, steps: [] };
    const withScenario = await once({ scenario });
    expect(withScenario.info.seed).toBe(99);
    expect(withScenario.info.scenario?.seed).toBe(99);
    // Asked for with a scenario, the seed is the scenario's too: one seed replays the schedule and the clients.
    const both = await once({ scenario, seed: 5 });
    expect([both.info.seed, both.info.scenario?.seed]).toEqual([5, 5]);
  });
});

describe('a fresh start', () => {
  it('restores every node, link and key before a scenario run, and can change the topology', async () => {
    const lab = await startLab();
    const runs = new LabRuns(lab, pool);
    await fault(lab, 'node-kill', { node: 2 });
    await fault(lab, 'link-cut', { client: 1, node: 3, mode: 'refuse' });
    const program = "import Redis from 'ioredis';\nconst r = new Redis({ host: 'redis-3.internal' });\nawait r.set('lock:left-over', 'x');\nr.disconnect();";
    let ended = new Promise<RunEnded>((resolve) => runs.once('ended', resolve));
    await runs.start({ code: program, clients: 1, fresh: true });
    expect((await ended).outcome.clients[0]!.status).toBe('exited');
    expect(lab.nodes.map((n) => n.state)).toEqual(['up', 'up', 'up', 'up', 'up']);
    expect(lab.links.view(1, 3).cut).toBeNull();

    ended = new Promise<RunEnded>((resolve) => runs.once('ended', resolve));
    await runs.start({ code: 'const x = 1;', clients: 1, topology: { kind: 'replicated', nodes: 2, persistence: 'none' } });
    await ended;
    expect(lab.nodes.map((n) => n.role)).toEqual(['master', 'replica']);
    expect(lab.nodeView(1).keys).toEqual([]);
  });
});

describe('client faults from the buttons', () => {
  it('a Resume pressed right after a Pause finds the client paused (the server knows what it asked for)', async () => {
    const lab = await startLab({ nodes: 1 });
    const runs = new LabRuns(lab, pool);
    const ended = new Promise<RunEnded>((resolve) => runs.once('ended', resolve));
    const info = await runs.start(parseCommand('run:start', { code: "import lab from 'lab';\nawait lab.sleep(1500);", clients: 1 }));
    // Both before the worker's pause event can have come back: the second is not refused as "not paused".
    await Promise.all([fault(lab, 'client-pause', { client: 1 }, runs.current), fault(lab, 'client-resume', { client: 1 }, runs.current)]);
    const outcome = await ended;
    expect(outcome.outcome.clients.map((c) => c.status)).toEqual(['exited']);
    const all = lab.history.since(0);
    const events = all.filter((e) => e.runId === info.runId);
    expect(all.filter((e) => e.type === 'nemesis' && e.phase !== 'invoke').map((e) => e.type === 'nemesis' && `${e.op} ${e.phase}`)).toEqual([
      'client-pause ok',
      'client-resume ok',
    ]);
    expect(events.filter((e) => e.type === 'client' && (e.event === 'pause' || e.event === 'resume')).map((e) => e.type === 'client' && e.event)).toEqual(['pause', 'resume']);
  });
});

describe('scenario steps that wait for an event of the run, carried out next to the clients', () => {
  async function runIn(lab: Awaited<ReturnType<typeof startLab>>, input: RunStartInput) {
    const runs = new LabRuns(lab, pool);
    const ended = new Promise<RunEnded>((resolve) => runs.once('ended', resolve));
    await runs.start(parseCommand('run:start', input));
    const outcome = await ended;
    return { outcome, events: lab.history.since(0).filter((e) => e.runId === outcome.runId) };
  }

  it('crashes Client 1 as soon as its SET is answered: between its two lines, before it reads the reply', async () => {
    const lab = await startLab({ nodes: 1 });
    const code = [
      "import Redis from 'ioredis';",
      "import lab from 'lab';",
      "const r = new Redis({ host: 'redis-1.internal' });",
      "await r.set('k:' + lab.client, 'v');",
      "lab.log('read the reply');",
      'r.disconnect();',
    ].join('\n');
    const { outcome, events } = await runIn(lab, {
      code,
      clients: 2,
      scenario: { id: 'between', title: 'Between', clients: 2, steps: [{ at: 0, when: { on: 'command-answered', client: 1, command: 'set' }, action: 'client-crash', client: 1 }] },
    });
    expect(outcome.outcome.clients.map((c) => c.status)).toEqual(['crashed', 'exited']);
    const lines = (client: number) => events.flatMap((e) => (e.type === 'console' && e.client === client ? [e.text] : []));
    expect(lines(1)).toEqual([]);
    expect(lines(2)).toEqual(['read the reply']);
    const answered = events.findIndex((e) => e.type === 'redis' && e.phase === 'ok' && e.client === 1 && e.command.toUpperCase() === 'SET');
    const step = events.findIndex((e) => e.type === 'scenario' && e.step === 'client-crash');
    expect(answered).toBeGreaterThanOrEqual(0);
    expect(step).toBeGreaterThan(answered);
    expect(events[step]).toMatchObject({ detail: "crash Client 1 (as soon as Client 1's SET is answered)" });
    expect(events.find((e) => e.type === 'nemesis' && e.op === 'client-crash' && e.phase === 'ok')).toMatchObject({ target: 'Client 1', detail: expect.stringMatching(/crashed/) });
  });

  it('pauses Client 1 a set time after it enters its job, and says which step never fired', async () => {
    const lab = await startLab({ nodes: 1 });
    const { outcome, events } = await runIn(lab, {
      code: "import lab from 'lab';\nawait lab.job('render').run(300);",
      clients: 1,
      scenario: {
        id: 'mid-job',
        title: 'Mid-job',
        clients: 1,
        steps: [
          { at: 100, when: { on: 'job-enter', client: 1 }, action: 'client-pause', client: 1, durationMs: 200 },
          { at: 0, when: { on: 'log', client: 1, text: 'never said' }, action: 'client-crash', client: 1 },
        ],
      },
    });
    expect(outcome.outcome.status).toBe('completed');
    const entered = events.find((e) => e.type === 'job' && e.phase === 'enter')!;
    const paused = events.find((e) => e.type === 'client' && e.event === 'pause')!;
    expect(paused).toMatchObject({ client: 1, durationMs: 200 });
    expect(paused.t - entered.t).toBeGreaterThanOrEqual(100);
    expect(events.some((e) => e.type === 'client' && e.event === 'resume')).toBe(true);
    const warnings = events.flatMap((e) => (e.type === 'console' && e.level === 'warn' ? [e.text] : []));
    expect(warnings).toEqual(['The scenario\'s step "crash Client 1" never fired: it waits until Client 1 logs "never said", and that did not happen in this run.']);
  });

  it("a link cut at 0 ms is in place before Client 1's first command, however early that command is", async () => {
    const lab = await startLab({ nodes: 2 });
    const code = [
      "import Redis from 'ioredis';",
      "import lab from 'lab';",
      "const r = new Redis({ host: 'redis-1.internal', maxRetriesPerRequest: 0 });",
      "r.on('error', () => undefined);",
      "try { lab.log('set: ' + (await r.set('first', 'v'))); } catch (e) { lab.log('set failed'); }",
      'r.disconnect();',
    ].join('\n');
    const { events } = await runIn(lab, {
      code,
      clients: 1,
      scenario: { id: 'cut-first', title: 'Cut first', clients: 1, steps: [{ at: 0, action: 'link-cut', client: 1, node: 1, mode: 'refuse' }] },
    });
    expect(events.flatMap((e) => (e.type === 'console' && e.client === 1 ? [e.text] : []))).toEqual(['set failed']);
    const order = events.flatMap((e) => (e.type === 'scenario' ? [e.step] : e.type === 'client' && e.event === 'start' ? ['client 1 starts'] : []));
    expect(order).toEqual(['start', 'link-cut', 'client 1 starts']);
  });

  it('holds Client 2 from its very start until Client 1 has the lock, whichever client would have been first', async () => {
    const lab = await startLab({ nodes: 1 });
    // Both start at once (no stagger): without the hold, either could lock first.
    const code = [
      "import Redis from 'ioredis';",
      "import lab from 'lab';",
      "const r = new Redis({ host: 'redis-1.internal' });",
      "while ((await r.set('lock', String(lab.client), 'PX', 2000, 'NX')) !== 'OK') await lab.sleep(20);",
      "await lab.job('work').run(100);",
      "await r.del('lock');",
      'r.disconnect();',
    ].join('\n');
    const { outcome, events } = await runIn(lab, {
      code,
      clients: 2,
      scenario: {
        id: 'hold',
        title: 'Hold',
        clients: 2,
        steps: [
          { at: 0, when: { on: 'client-start', client: 1 }, action: 'client-pause', client: 2, durationMs: 8_000 },
          { at: 0, when: { on: 'job-enter', client: 1 }, action: 'client-resume', client: 2 },
        ],
      },
    });
    expect(outcome.outcome.clients.map((c) => c.status)).toEqual(['exited', 'exited']);
    const enters = events.flatMap((e) => (e.type === 'job' && e.phase === 'enter' ? [e.client] : []));
    expect(enters).toEqual([1, 2]);
    // Nothing of Client 2's code ran before it was let go.
    const resumed = events.findIndex((e) => e.type === 'client' && e.client === 2 && e.event === 'resume');
    const firstCommand = events.findIndex((e) => e.type === 'redis' && e.client === 2);
    expect(resumed).toBeGreaterThan(0);
    expect(firstCommand).toBeGreaterThan(resumed);
  });
});

