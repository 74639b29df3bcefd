/**
 * Sandbox benchmarks (issue 3): the cost of running learner code in QuickJS
 * on a worker thread, compared with the same algorithm run natively in this
 * process against the same lab; host round trips per second per client; and
 * event → socket latency with 20 runs of 5 clients at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { Socket } from 'socket.io-client';
import { tabSoon } from '@/tests/helpers/browser-identity';
import type { HistoryEvent } from '@/lib/history';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import type { RunEnded } from '@/lib/run';
import { DEFAULT_TOPOLOGY } from '@/lib/cluster';
import { createLabServer } from '@/server/app-server';
import { configFromEnv } from '@/server/config';
import { Lab } from '@/server/lab/lab';
import { createSandboxPool } from '@/server/sandbox';
import { ms, percentile, printTable, type Row } from './stats';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-bench-sandbox-'));
/**
 * The sandbox and native loops take turns, block by block, through a key on Node 1: on a shared
 * two-core VM the speed of the machine drifts over seconds, and measuring one side after the other
 * put that drift into the ratio (the same code gave 1.7× to 3.6× from run to run). Whoever waits
 * polls every 5 ms, so the waiting side adds little load to the measuring one.
 */
const BLOCKS = 12;
const PER_BLOCK = 50;
/** The first block of each side warms connections and code and is not counted. */
const WARM_BLOCKS = 1;
const TURN_KEY = 'bench:turn';

/** The Redlock acquire + release of the Arabic production write-up and the Norwegian course lesson, as learner code: timings leave through lab.log. */
const LEARNER_REDLOCK = `
import Redis from 'ioredis';
import lab from 'lab';
const nodes = [1, 2, 3, 4, 5].map((n) => new Redis({ host: 'redis-' + n + '.internal' }));
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
for (const c of nodes) await c.ping();
const times = [];
for (let b = 0; b < ${BLOCKS}; b++) {
  while ((await nodes[0].get('${TURN_KEY}')) !== 'sandbox:' + b) await lab.sleep(5);
  for (let i = 0; i < ${PER_BLOCK}; i++) {
    const token = 'tok-' + b + '-' + i;
    const started = performance.now();
    const votes = await Promise.all(nodes.map((c) => c.set('lock:bench', token, 'PX', 10000, 'NX').then((r) => r === 'OK', () => false)));
    const acquired = votes.filter(Boolean).length >= 3;
    if (b >= ${WARM_BLOCKS}) times.push(performance.now() - started);
    if (!acquired) throw new Error('no quorum');
    await Promise.all(nodes.map((c) => c.eval(RELEASE, 1, 'lock:bench', token)));
  }
  await nodes[0].set('${TURN_KEY}', 'native:' + b);
}
// A console line is bounded (history budget), so the timings leave in lines of 50.
for (let i = 0; i < times.length; i += 50) lab.log('times ' + JSON.stringify(times.slice(i, i + 50).map((t) => Math.round(t * 1000) / 1000)));
let count = 0;
const until = performance.now() + 1000;
while (performance.now() < until) { await nodes[0].ping(); count++; }
lab.log('rtt ' + count);
for (const c of nodes) c.disconnect();
`;

/**
 * The same loop natively in this process, taking its turns after each sandbox block: through the lab's links
 * (what the sandbox's connections go through) and, right after, straight to the nodes' own ports — the
 * physical floor of an acquire on this machine, with no link in between.
 */
async function nativeRedlock(lab: Lab, sandboxEnded: Promise<unknown>): Promise<{ linked: number[]; direct: number[] }> {
  const nodes = await Promise.all(
    lab.nodes.map(
      async (n) =>
        new Redis({ host: '127.0.0.1', port: await lab.links.portFor(9, n.id), username: 'learner', password: lab.credentials.learner.password, enableReadyCheck: false }),
    ),
  );
  const direct = lab.nodes.map((n) => new Redis({ host: '127.0.0.1', port: n.port, username: 'learner', password: lab.credentials.learner.password, enableReadyCheck: false }));
  const release = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
  for (const c of [...nodes, ...direct]) await c.ping();
  const acquire = async (via: Redis[], token: string, into: number[] | null) => {
    const started = performance.now();
    const votes = await Promise.all(via.map((c) => c.set('lock:bench-native', token, 'PX', 10_000, 'NX').then((r) => r === 'OK', () => false)));
    into?.push(performance.now() - started);
    if (votes.filter(Boolean).length < 3) throw new Error('no quorum');
    await Promise.all(via.map((c) => c.eval(release, 1, 'lock:bench-native', token)));
  };
  const floor: number[] = [];
  let ended = false;
  void sandboxEnded.then(() => (ended = true));
  const times: number[] = [];
  await nodes[0]!.set(TURN_KEY, 'sandbox:0');
  for (let b = 0; b < BLOCKS; b++) {
    while ((await nodes[0]!.get(TURN_KEY)) !== `native:${b}`) {
      if (ended) throw new Error('the sandbox run ended before handing over its turn');
      await new Promise((r) => setTimeout(r, 5));
    }
    for (let i = 0; i < PER_BLOCK; i++) await acquire(nodes, `native-${b}-${i}`, b >= WARM_BLOCKS ? times : null);
    for (let i = 0; i < PER_BLOCK; i++) await acquire(direct, `direct-${b}-${i}`, b >= WARM_BLOCKS ? floor : null);
    if (b + 1 < BLOCKS) await nodes[0]!.set(TURN_KEY, `sandbox:${b + 1}`);
  }
  for (const c of [...nodes, ...direct]) c.disconnect();
  return { linked: times, direct: floor };
}

async function sandboxVsNative(): Promise<Row[]> {
  const lab = new Lab({ topology: DEFAULT_TOPOLOGY, clients: 1, dir: path.join(root, 'overhead') });
  await lab.start();
  const pool = createSandboxPool({ warmWorkers: 1, limits: { commandsPerSecond: 1_000_000, cpuTotalMs: 60_000, wallClockMs: 600_000 } });
  await pool.whenWarm();
  const ports = new Map<number, number>();
  for (const n of lab.nodes) ports.set(n.id, await lab.links.portFor(1, n.id));
  const logs: string[] = [];
  const handle = pool.startRun({
    runId: 'bench',
    code: LEARNER_REDLOCK,
    clients: 1,
    nodes: lab.nodes.map((n) => n.id),
    linkPort: (_client, node) => ports.get(node) ?? null,
    credentials: lab.credentials.learner,
    clock: { originEpochMs: lab.clockOrigin },
    onEvent: (e) => {
      if (e.type === 'console') logs.push(e.text);
    },
  });
  const { linked: native, direct: floor } = await nativeRedlock(lab, handle.done);
  const outcome = await handle.done;
  if (outcome.status !== 'completed') throw new Error(`sandbox run ${outcome.status}: ${outcome.error ?? ''} ${outcome.clients.map((c) => c.error).join(' ')}`);
  const sandboxed = logs.filter((l) => l.startsWith('times ')).flatMap((l) => JSON.parse(l.slice('times '.length)) as number[]);
  const rtt = Number(/rtt (\d+)/.exec(logs.find((l) => l.startsWith('rtt')) ?? '')?.[1]);
  await pool.close();
  await lab.destroy();
  const s50 = percentile(sandboxed, 50);
  const n50 = percentile(native, 50);
  const counted = `${BLOCKS - WARM_BLOCKS} × ${PER_BLOCK}`;
  return [
    { measure: `Redlock acquire (5 nodes) as learner code in the sandbox, p50 (${counted}, taking turns)`, value: ms(s50), goal: '–', met: null },
    { measure: 'same algorithm natively in this process, p50', value: ms(n50), goal: '–', met: null },
    { measure: 'sandbox / native', value: `${(s50 / n50).toFixed(2)}×`, goal: '≤ 2×', met: s50 / n50 <= 2 },
    { measure: 'the physical floor: the same natively, straight to the nodes (no link), p50', value: ms(percentile(floor, 50)), goal: '–', met: null },
    { measure: 'learner code / the physical floor', value: `${(s50 / percentile(floor, 50)).toFixed(2)}×`, goal: '≤ 4×', met: s50 / percentile(floor, 50) <= 4 },
    { measure: 'sandbox p95 / native p95', value: `${(percentile(sandboxed, 95) / percentile(native, 95)).toFixed(2)}×`, goal: '–', met: null },
    { measure: 'host round trips per second, one client (sequential PING)', value: `${rtt}/s`, goal: '–', met: null },
  ];
}

async function concurrentRuns(runs: number, clients: number): Promise<Row[]> {
  const server = await createLabServer(configFromEnv({ port: 0, web: false, maxLabs: runs + 2, warmLabs: 0, runRoot: path.join(root, 'server') }));
  type S = Socket<ServerToClientEvents, ClientToServerEvents>;
  const sockets: S[] = [];
  const latencies: number[] = [];
  const program = `
import Redis from 'ioredis';
import lab from 'lab';
const redis = new Redis({ host: 'redis-1.internal' });
for (let i = 0; i < 20; i++) {
  const token = 'c' + lab.client + '-' + i;
  while ((await redis.set('lock:r', token, 'PX', 2000, 'NX')) !== 'OK') await lab.sleep(2);
  await lab.job('work').run(2);
  await redis.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end", 1, 'lock:r', token);
}
redis.disconnect();
`;
  try {
    const labs: { socket: S; labId: string }[] = [];
    for (let i = 0; i < runs; i++) {
      const socket: S = tabSoon(server.url);
      sockets.push(socket);
      const joined = await socket.emitWithAck('lab:join', {});
      if (!joined.ok) throw new Error(joined.error.message);
      labs.push({ socket, labId: joined.value.labId });
    }
    const ended: Promise<RunEnded>[] = [];
    const started = performance.now();
    for (const { socket, labId } of labs) {
      const lab = server.labs.get(labId)!;
      socket.on('history:append', (batch) => {
        const now = lab.now();
        for (const e of batch.events as HistoryEvent[]) if (e.runId) latencies.push(now - e.t);
      });
      ended.push(new Promise((resolve) => socket.once('run:ended', resolve)));
      const r = await socket.emitWithAck('run:start', { code: program, clients });
      if (!r.ok) throw new Error(r.error.message);
    }
    const results = await Promise.all(ended);
    const wall = performance.now() - started;
    const held = results.filter((r) => r.verdict.valid === 'held').length;
    for (const r of results.filter((x) => x.verdict.valid !== 'held'))
      console.log(`run ${r.runId} ${r.outcome.status} ${r.verdict.valid}: ${r.verdict.counterExample?.message ?? ''} ${r.outcome.clients.map((c) => `${c.client}:${c.status}${c.error ? ` (${c.error})` : ''}`).join(', ')}`);
    return [
      { measure: `${runs} concurrent runs × ${clients} clients: all completed and held`, value: `${held}/${runs} in ${(wall / 1000).toFixed(1)} s`, goal: '–', met: held === runs },
      { measure: 'event → socket latency (worker event → browser message), p50', value: ms(percentile(latencies, 50)), goal: '–', met: null },
      { measure: 'event → socket latency, p95', value: ms(percentile(latencies, 95)), goal: '–', met: null },
    ];
  } finally {
    for (const s of sockets) s.close();
    await server.close();
  }
}

const rows = [...(await sandboxVsNative()), ...(await concurrentRuns(20, 5))];
fs.rmSync(root, { recursive: true, force: true });
printTable('Sandbox (issue 3)', rows);
// Something keeps the event loop busy after the server has closed (seen twice, not yet understood):
// a benchmark that has printed its table has nothing left to do.
process.exit(0);
