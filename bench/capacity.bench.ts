/**
 * Capacity of one lab server: how many labs the defaults allow on
 * this machine, what an idle lab costs, how joins fare with 100 labs, and how
 * fast a fault reaches its tab while 20 other labs run busy Redlock loops.
 * Real server, real redis-servers, real socket.io clients, real learner code.
 *
 *   npm run bench -- capacity            (LOCKLAB_BENCH_BUSY_LABS=20, LOCKLAB_BENCH_IDLE_LABS=100)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { createLabServer } from '@/server/app-server';
import { configFromEnv } from '@/server/config';
import { connectedTab as tab, keepBusy } from './busy-labs';
import { faultLatencies } from './fault-latency';
import { FAULTS_AS_FAST_AS_MEASURED, processFootprint, startServerProcess } from './server-process';
import { ms, percentile, printTable, type Row } from './stats';

type Tab = Socket<ServerToClientEvents, ClientToServerEvents>;

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-capacity-'));
const BUSY_LABS = Number(process.env.LOCKLAB_BENCH_BUSY_LABS ?? 20);
const IDLE_LABS = Number(process.env.LOCKLAB_BENCH_IDLE_LABS ?? 100);
const FAULT_SAMPLES = 40;

function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

async function join(socket: Tab): Promise<string> {
  const joined = await socket.emitWithAck('lab:join', {});
  if (!joined.ok) throw new Error(joined.error.message);
  return joined.value.labId;
}

/**
 * The busy phase runs the server in a process of its own, as `npm start` does: the twenty tabs and the probe
 * live here, so their socket work is not counted against the loop being measured (in one process it was).
 */
async function busyFaults(): Promise<{ idle: number[]; busy: number[]; busyRuns: number; serverRssMb: number }> {
  const server = await startServerProcess({
    LOCKLAB_MAX_LABS: String(BUSY_LABS + 4),
    ...FAULTS_AS_FAST_AS_MEASURED,
  });
  const tabs: Tab[] = [];
  try {
    const probe = await tab(server.url);
    tabs.push(probe);
    await join(probe);
    const idle = await faultLatencies(probe, FAULT_SAMPLES, 50);
    let stop = false;
    const busyTabs = await Promise.all(Array.from({ length: BUSY_LABS }, () => tab(server.url)));
    tabs.push(...busyTabs);
    for (const t of busyTabs) await join(t);
    const loops = busyTabs.map((t) => keepBusy(t, () => stop));
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // every loop going
    const busy = await faultLatencies(probe, FAULT_SAMPLES, 50);
    const serverRssMb = processFootprint(server.pid)?.rssMb ?? NaN;
    stop = true;
    const busyRuns = (await Promise.all(loops)).reduce((a, b) => a + b.runs, 0);
    return { idle, busy, busyRuns, serverRssMb };
  } finally {
    for (const t of tabs) t.close();
    await server.stop();
  }
}

async function manyIdleLabs(): Promise<{ joins: number[]; perLabMb: number; joined: number }> {
  const server = await createLabServer(
    configFromEnv({ port: 0, web: false, maxLabs: IDLE_LABS + 20, warmLabs: 0, runRoot: path.join(root, 'idle') }),
  );
  const tabs: Tab[] = [];
  const joins: number[] = [];
  try {
    const baseKb = process.memoryUsage().rss / 1024;
    for (let i = 0; i < IDLE_LABS; i++) {
      const t = await tab(server.url);
      tabs.push(t);
      const started = performance.now();
      await join(t);
      joins.push(performance.now() - started);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const nodesKb = server.labs
      .all()
      .flatMap((lab) => lab.nodes.map((n) => (n.pid ? rssKb(n.pid) : 0)))
      .reduce((a, b) => a + b, 0);
    const serverKb = Math.max(0, process.memoryUsage().rss / 1024 - baseKb);
    return { joins, perLabMb: (nodesKb + serverKb) / IDLE_LABS / 1024, joined: server.labs.size };
  } finally {
    for (const t of tabs) t.close();
    await server.close();
  }
}

export async function runCapacityBench(): Promise<Row[]> {
  const defaults = configFromEnv();
  const idle = await manyIdleLabs();
  const faults = await busyFaults();
  fs.rmSync(root, { recursive: true, force: true });
  const p95Busy = percentile(faults.busy, 95);
  return [
    { measure: `labs at once on the defaults (${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.cpus().length} cores)`, value: String(defaults.maxLabs), goal: '≥ 60', met: defaults.maxLabs >= 60 },
    { measure: `idle labs joined (asked ${IDLE_LABS})`, value: String(idle.joined), goal: `${IDLE_LABS}`, met: idle.joined === IDLE_LABS },
    { measure: 'RSS per idle lab (5 redis-servers + server growth)', value: `${idle.perLabMb.toFixed(1)} MB`, goal: '≤ 80 MB', met: idle.perLabMb <= 80 },
    { measure: `join p50 with up to ${IDLE_LABS} labs`, value: ms(percentile(idle.joins, 50)), goal: '–', met: null },
    { measure: `join p95 with up to ${IDLE_LABS} labs`, value: ms(percentile(idle.joins, 95)), goal: '–', met: null },
    { measure: 'fault → event p95, idle server', value: ms(percentile(faults.idle, 95)), goal: '≤ 50 ms', met: percentile(faults.idle, 95) <= 50 },
    { measure: `fault → event p50, ${BUSY_LABS} labs running 5-client Redlock loops`, value: ms(percentile(faults.busy, 50)), goal: '–', met: null },
    { measure: `fault → event p95, ${BUSY_LABS} busy labs`, value: ms(p95Busy), goal: '≤ 250 ms', met: p95Busy <= 250 },
    { measure: 'server process RSS under that load', value: `${faults.serverRssMb.toFixed(0)} MB`, goal: '–', met: null },
    { measure: 'busy runs started during the measurement', value: String(faults.busyRuns), goal: '–', met: null },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable('Capacity of one lab server', await runCapacityBench());
  // A hundred closed sockets' timers and the servers' last handles would keep the process a while longer.
  process.exit(0);
}
