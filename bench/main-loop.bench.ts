/**
 * The web server's main thread while learners' programs are busy (issue 29):
 * how much of each second it ran and how much it waited for a CPU (Linux's
 * run-queue delay, /proc/<pid>/schedstat of its main thread), where the CPU of
 * the whole machine went (the server process, its sandbox hosts, the link
 * process, the redis-servers), and fault → event latency meanwhile. The
 * server runs in a process of its own, as `npm start` runs it.
 *
 *   npm run bench -- main-loop       (LOCKLAB_BENCH_BUSY_LABS=10, LOCKLAB_BENCH_SECONDS=10)
 */
import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { busyRedlock, connectedTab, keepBusy, type BusyCount } from './busy-labs';
import { faultLatencies } from './fault-latency';
import { descendants, kindOf, processRan, schedstat } from './proc-stats';
import { FAULTS_AS_FAST_AS_MEASURED, startServerProcess } from './server-process';
import { ms, percentile, printTable, type Row } from './stats';

type Tab = Socket<ServerToClientEvents, ClientToServerEvents>;
const BUSY_LABS = Number(process.env.LOCKLAB_BENCH_BUSY_LABS ?? 10);
const SECONDS = Number(process.env.LOCKLAB_BENCH_SECONDS ?? 10);

async function join(socket: Tab): Promise<void> {
  const joined = await socket.emitWithAck('lab:join', {});
  if (!joined.ok) throw new Error(joined.error.message);
}

const server = await startServerProcess({
  LOCKLAB_MAX_LABS: String(BUSY_LABS + 4),
  ...FAULTS_AS_FAST_AS_MEASURED,
});
const tabs: Tab[] = [];
let stop = false;
/** The busy loops (5 ms back-off after a missed lock); what they did, once stopped. */
let loops: Promise<BusyCount>[] = [];
try {
  const probe = await connectedTab(server.url);
  tabs.push(probe);
  await join(probe);
  const busyTabs = await Promise.all(Array.from({ length: BUSY_LABS }, () => connectedTab(server.url)));
  tabs.push(...busyTabs);
  for (const t of busyTabs) await join(t);
  const program = busyRedlock(5);
  loops = busyTabs.map((t) => keepBusy(t, () => stop, program));
  await new Promise((resolve) => setTimeout(resolve, 3_000)); // every loop going
  const mainBefore = schedstat(`/proc/${server.pid}/task/${server.pid}`);
  // Named now: a child that ends meanwhile (a node restarted) can no longer be told by its /proc entry.
  const kids = descendants(server.pid).map((pid) => ({ pid, name: kindOf(pid) }));
  const ranBefore = new Map([[server.pid, processRan(server.pid)], ...kids.map((k) => [k.pid, processRan(k.pid)] as [number, number])]);
  const started = performance.now();
  const faults = await faultLatencies(probe, 20, 50);
  const left = SECONDS * 1000 - (performance.now() - started);
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  const seconds = (performance.now() - started) / 1000;
  const mainAfter = schedstat(`/proc/${server.pid}/task/${server.pid}`);
  const byKind = new Map<string, number>();
  byKind.set('server process (all its threads)', (processRan(server.pid) - ranBefore.get(server.pid)!) / 1e6 / seconds);
  for (const k of kids) {
    const ran = processRan(k.pid);
    if (ran === 0) continue;
    byKind.set(k.name, (byKind.get(k.name) ?? 0) + (ran - (ranBefore.get(k.pid) ?? 0)) / 1e6 / seconds);
  }
  stop = true;
  const busy = await Promise.all(loops);
  const runs = busy.reduce((n, c) => n + c.runs, 0);
  const refused = busy.flatMap((c) => c.refused);
  const rows: Row[] = [
    { measure: `server main thread ran, ${BUSY_LABS} labs running 5-client Redlock loops`, value: `${((mainAfter[0] - mainBefore[0]) / 1e6 / seconds).toFixed(0)} ms/s`, goal: '–', met: null },
    { measure: 'server main thread waited for a CPU (run queue)', value: `${((mainAfter[1] - mainBefore[1]) / 1e6 / seconds).toFixed(0)} ms/s`, goal: '–', met: null },
    ...[...byKind].map(([name, msPerS]): Row => ({ measure: `CPU: ${name}`, value: `${msPerS.toFixed(0)} ms/s`, goal: '–', met: null })),
    { measure: `fault → event p50 (n = ${faults.length})`, value: ms(percentile(faults, 50)), goal: '–', met: null },
    { measure: 'fault → event p95', value: ms(percentile(faults, 95)), goal: '–', met: null },
    { measure: 'busy runs started', value: String(runs), goal: '–', met: null },
    { measure: 'busy run starts refused', value: refused.length === 0 ? '0' : `${refused.length} (${refused[0]})`, goal: '–', met: null },
  ];
  printTable(`Main loop with ${BUSY_LABS} busy labs (${seconds.toFixed(1)} s)`, rows);
} finally {
  stop = true;
  for (const t of tabs) t.close();
  await server.stop();
}
process.exit(0);
