/**
 * The soak: one real lab server (a child process, as `npm start` runs it)
 * with many labs, each running a correct lock program again and again while
 * a seeded nemesis kills, restarts, pauses and delays the nodes and links it
 * does not lock on. It samples the server's RSS and open file descriptors,
 * and at the end checks that every verdict was "held", that neither grew
 * after warm-up, and that no redis-server outlived the server.
 *
 *   npm run soak                      (30 minutes, 20 labs)
 *   npm run soak -- --minutes 2 --labs 10
 * tests/integration/attacks/soak.test.ts runs the two-minute version in CI.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { tabSoon } from '@/tests/helpers/browser-identity';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { seededRandom, type Random } from '@/lib/random';
import type { HistoryEvent } from '@/lib/history';
import type { RunEnded } from '@/lib/run';
import { processFootprint, startServerProcess } from './server-process';

type Tab = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface SoakOptions {
  minutes: number;
  labs: number;
  seed?: number;
  /** A line of progress now and then. */
  log?: (line: string) => void;
  /** A folder where the history of every run whose verdict was not "held" is written, to read why. */
  keepFailuresIn?: string;
}

export interface SoakSample {
  atS: number;
  rssMb: number;
  fds: number;
}

export interface SoakReport {
  runs: number;
  verdicts: Record<string, number>;
  /** Runs that ended otherwise than completing (a limit, a crash): with their reason. */
  troubles: string[];
  /** Verdicts other than held: the check and the checker's counter-example, so a failure says what broke. */
  notHeld: string[];
  faults: number;
  samples: SoakSample[];
  /** Median after warm-up, first half and second half: growth shows as a ratio above 1. */
  rss: { first: number; second: number; ratio: number };
  fdCount: { first: number; second: number; ratio: number };
  /** redis-servers of this server still alive a few seconds after it exited. */
  leftoverNodes: number;
}

/** A correct lock on Node 1: SET NX PX with a token, a short job, a token-checked release. */
const CORRECT = `
import Redis from 'ioredis';
import lab from 'lab';
const redis = new Redis({ host: 'redis-1.internal', commandTimeout: 500 });
const token = lab.client + ':' + Math.random().toString(36).slice(2);
for (let round = 0; round < 3; round++) {
  while ((await redis.set('lock:soak', token, 'PX', 5000, 'NX')) !== 'OK') await lab.sleep(5);
  await lab.job('soak').run(15 + Math.floor(Math.random() * 20));
  await redis.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end", 1, 'lock:soak', token);
  await lab.sleep(10);
}
redis.disconnect();
`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** One lab's nemesis: random faults on Nodes 2–5 and on links, never on Node 1, where the lock lives. */
async function nemesis(tab: Tab, random: Random, running: () => boolean, count: () => void): Promise<void> {
  const down = new Set<number>();
  const paused = new Set<number>();
  while (running()) {
    await new Promise((resolve) => setTimeout(resolve, 300 + random() * 1_200));
    if (!running() || !tab.connected) return;
    const node = 2 + Math.floor(random() * 4);
    const roll = random();
    try {
      if (down.has(node)) {
        if ((await tab.emitWithAck('node:restart', { node })).ok) down.delete(node);
      } else if (paused.has(node)) {
        if ((await tab.emitWithAck('node:resume', { node })).ok) paused.delete(node);
      } else if (roll < 0.35) {
        if ((await tab.emitWithAck('node:kill', { node })).ok) down.add(node);
      } else if (roll < 0.6) {
        if ((await tab.emitWithAck('node:pause', { node })).ok) paused.add(node);
      } else {
        const client = 1 + Math.floor(random() * 3);
        await tab.emitWithAck('link:delay', { client, node: 1 + Math.floor(random() * 5), delayMs: Math.floor(random() * 40), jitterMs: 5 });
      }
      count();
    } catch {
      return; // the tab went away
    }
  }
}

async function runner(tab: Tab, running: () => boolean, ended: (e: RunEnded, history: HistoryEvent[]) => void): Promise<void> {
  // The lab's history as its tab sees it, from the start of the current run: the evidence when a verdict is not "held".
  let history: HistoryEvent[] = [];
  tab.on('history:append', (batch) => {
    history.push(...batch.events);
  });
  while (running() && tab.connected) {
    const done = new Promise<RunEnded>((resolve) => tab.once('run:ended', resolve));
    history = [];
    const started = await tab.emitWithAck('run:start', { code: CORRECT, clients: 3 }).catch(() => null);
    if (!started?.ok) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    ended(await done, history);
  }
}

export async function soak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => undefined);
  // The soak's own tabs send faults faster than a person; the caps are tested on their own.
  const server = await startServerProcess({ LOCKLAB_LAB_ACTION_RATE: '100', LOCKLAB_PER_LAB_RATE: '100' });
  const tabs: Tab[] = [];
  try {
    const url = server.url;
    for (let i = 0; i < options.labs; i++) {
      const tab: Tab = tabSoon(url);
      tabs.push(tab);
      const joined = await tab.emitWithAck('lab:join', {});
      if (!joined.ok) throw new Error(`lab ${i + 1}: ${joined.error.message}`);
    }
    log(`soak: ${options.labs} labs joined; ${options.minutes} min of runs and faults`);

    const report: SoakReport = {
      runs: 0,
      verdicts: {},
      troubles: [],
      notHeld: [],
      faults: 0,
      samples: [],
      rss: { first: 0, second: 0, ratio: 0 },
      fdCount: { first: 0, second: 0, ratio: 0 },
      leftoverNodes: 0,
    };
    const began = performance.now();
    const durationMs = options.minutes * 60_000;
    const running = () => performance.now() - began < durationMs;
    const random = seededRandom(options.seed ?? 13);
    const loops = tabs.flatMap((tab) => [
      runner(tab, running, (e, history) => {
        report.runs++;
        report.verdicts[e.verdict.valid] = (report.verdicts[e.verdict.valid] ?? 0) + 1;
        if (e.verdict.valid !== 'held') {
          let where = '';
          if (options.keepFailuresIn) {
            fs.mkdirSync(options.keepFailuresIn, { recursive: true });
            where = path.join(options.keepFailuresIn, `${e.runId}.json`);
            fs.writeFileSync(where, JSON.stringify({ ended: e, history }));
            where = ` (history: ${where})`;
          }
          report.notHeld.push(`${e.verdict.valid}: ${e.verdict.counterExample ? `${e.verdict.counterExample.check}: ${e.verdict.counterExample.message}` : 'no counter-example'}${where}`);
        }
        if (e.outcome.status !== 'completed') report.troubles.push(`${e.outcome.status}: ${e.outcome.error ?? e.outcome.clients.map((c) => c.error).join('; ')}`);
      }),
      nemesis(tab, seededRandom(Math.floor(random() * 2 ** 31)), running, () => report.faults++),
    ]);
    const sampleEvery = Math.max(2_000, Math.min(10_000, durationMs / 60));
    const sampler = setInterval(() => {
      const now = processFootprint(server.pid);
      if (!now) return;
      const atS = (performance.now() - began) / 1000;
      report.samples.push({ atS, ...now });
      if (report.samples.length % 10 === 0) log(`soak: ${atS.toFixed(0)} s, RSS ${now.rssMb.toFixed(0)} MB, ${now.fds} fds, ${report.runs} runs, ${report.faults} faults`);
    }, sampleEvery);
    await Promise.all(loops);
    clearInterval(sampler);

    // Warm-up is the first quarter; then the medians of the two halves of what is left.
    const after = report.samples.filter((s) => s.atS >= durationMs / 4000);
    const half = Math.floor(after.length / 2);
    const compare = (pick: (s: SoakSample) => number) => {
      const first = median(after.slice(0, half).map(pick));
      const second = median(after.slice(half).map(pick));
      return { first, second, ratio: second / first };
    };
    report.rss = compare((s) => s.rssMb);
    report.fdCount = compare((s) => s.fds);

    for (const tab of tabs) tab.close();
    report.leftoverNodes = (await server.stop()).leftoverNodes;
    return report;
  } finally {
    for (const tab of tabs) tab.close();
    await server.stop();
  }
}

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const keep = process.argv.indexOf('--keep-failures');
  const report = await soak({
    minutes: flag('minutes', 30),
    labs: flag('labs', 20),
    seed: flag('seed', 13),
    log: console.log,
    keepFailuresIn: keep >= 0 ? process.argv[keep + 1] : undefined,
  });
  const pct = (r: number) => `${((r - 1) * 100).toFixed(1)} %`;
  console.log(`\n### Soak: ${flag('minutes', 30)} min, ${flag('labs', 20)} labs\n`);
  console.log(`| measure | value |\n|---|---|`);
  console.log(`| runs of a correct program | ${report.runs} |`);
  console.log(`| verdicts | ${Object.entries(report.verdicts).map(([k, v]) => `${k} ${v}`).join(', ')} |`);
  console.log(`| runs that did not complete | ${report.troubles.length} |`);
  console.log(`| faults injected | ${report.faults} |`);
  console.log(`| server RSS after warm-up, median first → second half | ${report.rss.first.toFixed(0)} → ${report.rss.second.toFixed(0)} MB (${pct(report.rss.ratio)}) |`);
  console.log(`| open file descriptors, same | ${report.fdCount.first} → ${report.fdCount.second} (${pct(report.fdCount.ratio)}) |`);
  console.log(`| redis-servers left after SIGTERM | ${report.leftoverNodes} |`);
  for (const t of report.troubles.slice(0, 10)) console.log(`  trouble: ${t}`);
  const ok =
    report.runs > 0 &&
    Object.keys(report.verdicts).every((v) => v === 'held') &&
    Math.abs(report.rss.ratio - 1) <= 0.1 &&
    Math.abs(report.fdCount.ratio - 1) <= 0.1 &&
    report.leftoverNodes === 0;
  console.log(ok ? '\nsoak: passed' : '\nsoak: FAILED');
  process.exit(ok ? 0 : 1);
}
