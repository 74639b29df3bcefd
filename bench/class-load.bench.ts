/**
 * Issue 29's table as a class loads one lab server: a hundred learners open
 * the page within half a minute (each its own browser, identities bought
 * beforehand, as their own machines would), then sit idle; then twenty of
 * them run 5-client Redlock loops. Measured from outside the server's
 * process, as `npm start` runs it: joins, fault → event (a kill, until the
 * tab hears the node is down; ≥ 40 cycles per phase), the main thread's CPU
 * and run-queue wait (/proc/<pid>/task/<tid>/schedstat), the CPU of every
 * process the server started (its threads, node host, link process, sandbox
 * hosts, redis-servers), the event loop's lag (/metrics), how busy runs
 * ended, and a cold lab's start against the machine's floor for it.
 *
 *   npm run bench -- class-load   (LOCKLAB_BENCH_LABS=100, LOCKLAB_BENCH_BUSY_LABS=20, LOCKLAB_BENCH_ARRIVAL_S=30;
 *                                  LOCKLAB_BENCH_SHOW_JOINS=1 prints each join as arrival:ms)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { browserCookie } from '@/tests/helpers/browser-identity';
import { DEFAULT_TOPOLOGY } from '@/lib/cluster';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import type { RunStatus } from '@/lib/run';
import { Lab } from '@/server/lab/lab';
import { REDIS_SERVER_BIN } from '@/server/cluster/redis-process';
import { connectedTab } from './busy-labs';
import { faultLatencies } from './fault-latency';
import { descendants, kindOf, processRan, schedstat } from './proc-stats';
import { FAULTS_AS_FAST_AS_MEASURED, startServerProcess } from './server-process';
import { ms, percentile, printTable, type Row } from './stats';

type Tab = Socket<ServerToClientEvents, ClientToServerEvents>;
const LABS = Number(process.env.LOCKLAB_BENCH_LABS ?? 100);
const BUSY_LABS = Number(process.env.LOCKLAB_BENCH_BUSY_LABS ?? 20);
const ARRIVAL_S = Number(process.env.LOCKLAB_BENCH_ARRIVAL_S ?? 30);
const FAULT_CYCLES = 40;
/** Holds each of a busy run's five clients takes before it ends: work that finishes, so a run hitting the wall clock shows. */
const HOLDS_PER_CLIENT = 10;

/** Five clients racing for a Redlock over the five nodes until each has held it HOLDS_PER_CLIENT times. */
const FINITE_REDLOCK = `
import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';
const clients = [1, 2, 3, 4, 5].map((n) => new Redis({ host: \`redis-\${n}.internal\` }));
const redlock = new Redlock(clients, { retryCount: 0 });
for (let held = 0; held < ${HOLDS_PER_CLIENT}; ) {
  try {
    const lock = await redlock.acquire(['lock:busy'], 1000);
    await lab.job('busy').run(1);
    await lock.release();
    held++;
  } catch {
    await lab.sleep(5);
  }
}
`;
const IDLE_WINDOW_S = 10;

/** CPU ns per thread of a process, keyed `name (tid)`; the main thread is `main`. */
function threads(pid: number): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    let name = '?';
    try {
      name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    out.set(Number(tid) === pid ? 'main' : `${name} (${tid})`, schedstat(`/proc/${pid}/task/${tid}`));
  }
  return out;
}

interface Window {
  seconds: number;
  main: { ranMsPerS: number; waitedMsPerS: number };
  byKind: Map<string, number>;
  serverThreads: [string, number][];
}

/** Watches the server and everything below it from now; `end()` says what each used per second. */
function watch(server: number): { end(): Window } {
  const started = performance.now();
  const threadsBefore = threads(server);
  const kids = descendants(server).map((pid) => ({ pid, kind: kindOf(pid), ran: processRan(pid) }));
  return {
    end(): Window {
      const seconds = (performance.now() - started) / 1000;
      const threadsAfter = threads(server);
      const perS = (ns: number) => ns / 1e6 / seconds;
      const byKind = new Map<string, number>();
      let serverAll = 0;
      const serverThreads: [string, number][] = [];
      for (const [name, [ran]] of threadsAfter) {
        const delta = ran - (threadsBefore.get(name)?.[0] ?? 0);
        serverAll += delta;
        serverThreads.push([name, perS(delta)]);
      }
      byKind.set('server process, all threads', perS(serverAll));
      for (const kid of kids) {
        const ran = processRan(kid.pid);
        if (ran === 0) continue; // gone meanwhile (a node restarted): its time is lost with it
        byKind.set(kid.kind, (byKind.get(kid.kind) ?? 0) + perS(ran - kid.ran));
      }
      const [mainRan0, mainWait0] = threadsBefore.get('main') ?? [0, 0];
      const [mainRan1, mainWait1] = threadsAfter.get('main') ?? [0, 0];
      return {
        seconds,
        main: { ranMsPerS: perS(mainRan1 - mainRan0), waitedMsPerS: perS(mainWait1 - mainWait0) },
        byKind,
        serverThreads: serverThreads.filter(([, v]) => v >= 1).sort((a, b) => b[1] - a[1]),
      };
    },
  };
}

/** The event loop's lag since the last scrape (prom-client resets its histogram on every scrape). */
async function loopLag(url: string): Promise<{ mean: number; p99: number; max: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^locklab_nodejs_eventloop_lag_${name}_seconds (\\S+)`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { mean: read('mean'), p99: read('p99'), max: read('max') };
}

async function join(tab: Tab): Promise<number> {
  const started = performance.now();
  const joined = await tab.emitWithAck('lab:join', {});
  if (!joined.ok) throw new Error(`a join was refused: ${joined.error.message}`);
  return performance.now() - started;
}

/** Five redis-servers exec'd at once from a small process, each until it exits (`--version`): what any cold lab pays here. */
async function spawnFloor(samples: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 5 }, () => new Promise((resolve, reject) => spawn(REDIS_SERVER_BIN, ['--version'], { stdio: 'ignore' }).on('exit', resolve).on('error', reject))),
    );
    times.push(performance.now() - started);
  }
  return times;
}

async function coldReady(samples: number): Promise<number[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-class-cold-'));
  const times: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const lab = new Lab({ topology: DEFAULT_TOPOLOGY, clients: 3, dir: path.join(root, `lab-${i}`) });
      const started = performance.now();
      await lab.start();
      times.push(performance.now() - started);
      await lab.destroy();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  return times;
}

const cpuRows = (phase: string, w: Window): Row[] => [
  { measure: `${phase}: server main thread ran`, value: `${w.main.ranMsPerS.toFixed(0)} ms/s`, goal: '< 100 ms/s', met: w.main.ranMsPerS < 100 },
  { measure: `${phase}: server main thread waited for a CPU`, value: `${w.main.waitedMsPerS.toFixed(0)} ms/s`, goal: '< 100 ms/s', met: w.main.waitedMsPerS < 100 },
  ...[...w.byKind].map(([kind, v]): Row => ({ measure: `${phase}: CPU of ${kind}`, value: `${v.toFixed(0)} ms/s`, goal: '–', met: null })),
  ...w.serverThreads.slice(0, 6).map(([name, v]): Row => ({ measure: `${phase}: server thread ${name}`, value: `${v.toFixed(0)} ms/s`, goal: '–', met: null })),
];

export async function runClassLoadBench(): Promise<Row[]> {
  // Cold starts first, on a quiet machine and outside any server: the figure the issue compares.
  const floor = await spawnFloor(15);
  const cold = await coldReady(15);

  const server = await startServerProcess({
    LOCKLAB_MAX_LABS: String(LABS + 10),
    LOCKLAB_WARM_LABS: '1',
    ...FAULTS_AS_FAST_AS_MEASURED,
  });
  const tabs: Tab[] = [];
  const statuses = new Map<RunStatus | 'refused' | 'still waiting', number>();
  /** Why run starts were refused, each reason once. */
  const refusals = new Set<string>();
  let stop = false;
  try {
    // Each learner's own browser identity, bought before the class arrives: on a learner's machine, not this one.
    const cookies: string[] = [];
    for (let i = 0; i < LABS; i++) cookies.push(await browserCookie(server.url));
    const arrivals = Array.from({ length: LABS }, () => Math.random() * ARRIVAL_S * 1000).sort((a, b) => a - b);
    const classStarted = performance.now();
    const joins = await Promise.all(
      arrivals.map(async (at, i) => {
        await new Promise((resolve) => setTimeout(resolve, at));
        const tab = await connectedTab(server.url, cookies[i]);
        tabs.push(tab);
        return join(tab);
      }),
    );
    const classSeconds = (performance.now() - classStarted) / 1000;
    if (process.env.LOCKLAB_BENCH_SHOW_JOINS) console.log(joins.map((j, i) => `${(arrivals[i]! / 1000).toFixed(1)}s:${j.toFixed(0)}`).join(' '));

    // Idle: every lab joined, nothing running.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const idleWatch = watch(server.pid);
    await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_S * 1000));
    const idle = idleWatch.end();
    const probe = tabs[0]!;
    const idleFaults = await faultLatencies(probe, FAULT_CYCLES, 50);

    // Busy: twenty of the class run five-client Redlock programs, again as each ends; the probe's lab is not one of them.
    const program = FINITE_REDLOCK;
    const busyTabs = tabs.slice(1, 1 + BUSY_LABS);
    for (const tab of busyTabs) {
      const start = () => {
        if (stop) return;
        const refused = (why: string) => {
          // A start still waiting for admission when the measurement stops its tab is answered "stopped before
          // it started": it waited the whole busy phase, which is what this counts, not a refusal.
          if (stop) {
            statuses.set('still waiting', (statuses.get('still waiting') ?? 0) + 1);
            return;
          }
          statuses.set('refused', (statuses.get('refused') ?? 0) + 1);
          refusals.add(why);
        };
        tab.emitWithAck('run:start', { code: program, clients: 5 }).then(
          (started) => !started.ok && refused(started.error.message),
          (error: unknown) => refused(error instanceof Error ? error.message : String(error)),
        );
      };
      tab.on('run:ended', (ended) => {
        // The runs the measurement's end stops are not the load's outcome.
        if (stop) return;
        statuses.set(ended.outcome.status, (statuses.get(ended.outcome.status) ?? 0) + 1);
        start();
      });
      start();
    }
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await loopLag(server.url); // a new window for the lag
    const busyWatch = watch(server.pid);
    const busyFaults = await faultLatencies(probe, FAULT_CYCLES, 50);
    const left = IDLE_WINDOW_S * 1000 - busyWatch.end().seconds * 1000;
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    const busy = busyWatch.end();
    const lag = await loopLag(server.url);
    stop = true;
    await Promise.all(busyTabs.map((tab) => tab.emitWithAck('run:stop', {}).catch(() => null)));

    const idleTotal = [...idle.byKind.values()].reduce((a, b) => a + b, 0);
    const finished = [...statuses].filter(([s]) => s === 'completed').reduce((n, [, c]) => n + c, 0);
    const ended = [...statuses].filter(([s]) => s !== 'refused' && s !== 'still waiting').reduce((n, [, c]) => n + c, 0);
    const timedOut = statuses.get('timeout') ?? 0;
    const p = (xs: number[], q: number) => percentile(xs, q);
    return [
      { measure: `cold lab ready (5 nodes answer PING), p50 (n = ${cold.length})`, value: ms(p(cold, 50)), goal: '≤ 60 ms', met: p(cold, 50) <= 60 },
      { measure: "this machine's floor: 5 redis-servers exec'd at once until they exit, p50", value: ms(p(floor, 50)), goal: '–', met: null },
      { measure: `${LABS} learners arriving within ${ARRIVAL_S} s (took ${classSeconds.toFixed(0)} s): join p50`, value: ms(p(joins, 50)), goal: '≤ 100 ms', met: p(joins, 50) <= 100 },
      { measure: 'join p95', value: ms(p(joins, 95)), goal: '≤ 300 ms', met: p(joins, 95) <= 300 },
      { measure: `fault → event p50, ${LABS} idle labs (n = ${idleFaults.length})`, value: ms(p(idleFaults, 50)), goal: '–', met: null },
      { measure: `fault → event p95, ${LABS} idle labs`, value: ms(p(idleFaults, 95)), goal: '≤ 50 ms', met: p(idleFaults, 95) <= 50 },
      ...cpuRows(`${LABS} idle labs`, idle),
      { measure: `${LABS} idle labs: everything the server started, together`, value: `${idleTotal.toFixed(0)} ms/s`, goal: '< 150 ms/s', met: idleTotal < 150 },
      { measure: `fault → event p50, ${LABS} labs, ${BUSY_LABS} running 5-client Redlock programs (n = ${busyFaults.length})`, value: ms(p(busyFaults, 50)), goal: '–', met: null },
      { measure: `fault → event p95, same load`, value: ms(p(busyFaults, 95)), goal: '≤ 250 ms', met: p(busyFaults, 95) <= 250 },
      { measure: 'event-loop lag under that load: mean / p99 / max', value: `${lag.mean.toFixed(0)} / ${lag.p99.toFixed(0)} / ${lag.max.toFixed(0)} ms`, goal: '–', met: null },
      ...cpuRows(`${BUSY_LABS} busy`, busy),
      {
        measure: `busy runs (${HOLDS_PER_CLIENT} holds a client) that ended: completed / wall clock / other (${[...statuses].map(([s, c]) => `${s} ${c}`).join(', ')})`,
        value: `${finished} / ${timedOut} / ${ended - finished - timedOut}`,
        goal: 'all complete',
        met: ended > 0 && finished === ended,
      },
      ...[...refusals].map((why): Row => ({ measure: `a busy run start refused: ${why}`, value: '', goal: '–', met: null })),
    ];
  } finally {
    stop = true;
    for (const tab of tabs) tab.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(`Issue 29 as a class loads the server (${os.cpus().length} cores)`, await runClassLoadBench());
  process.exit(0);
}
