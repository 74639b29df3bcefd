/**
 * Benchmark: the Measurements view on a 10,000-event run (goals: measurements computed in < 50 ms, the charts drawn in
 * < 16 ms, one frame at 60 Hz).
 * Run: node --import tsx bench/measurements.bench.ts (or `npm run bench -- measurements`)
 *
 * The history is a seeded Redlock run: five clients contend for one lock on five nodes (each attempt answered after a
 * latency with a long tail, refusals, a few timeouts, holds, jobs), with node kills and restarts. `measureRun` is timed
 * in Node; then, in headless Chromium (Debian's /usr/bin/chromium via Playwright) on a static page, the view's own
 * chart code (components/measurements/chart-options.ts with uPlot, bundled by esbuild) draws the latency histogram and
 * the over-time chart at 800 px: "create" is what the view does when a run's measurements change (a new uPlot per
 * chart, drawn at once), "redraw" is a setData on an existing chart; each timed until the canvas has finished drawing
 * (a pixel read). Medians of 30.
 */
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { HistoryEvent, HistoryInput } from '../lib/history';
import { measureRun } from '../lib/measurements';
import { ms, percentile, printTable, type Row } from './stats';

const TARGET = 10_000;
const NODES = 5;
const CLIENTS = 5;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function makeHistory(): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  let seed = 17;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  let t = 1_000;
  let opId = 0;
  const push = (input: HistoryInput) => events.push({ ...input, seq: events.length, t: input.t ?? t } as HistoryEvent);
  for (let c = 1; c <= CLIENTS; c++) push({ type: 'client', client: c, event: 'start' });
  let round = 0;
  while (events.length < TARGET) {
    round++;
    const winner = 1 + Math.floor(random() * CLIENTS);
    const token = (c: number) => `tok-${round}-${c}`;
    for (let c = 1; c <= CLIENTS; c++) push({ type: 'lock', client: c, event: 'attempt', resources: ['lock'], token: token(c), attempt: 1, ttlMs: 1_000 });
    for (let node = 1; node <= NODES; node++) {
      const id = ++opId;
      push({ type: 'redis', phase: 'invoke', opId: id, client: winner, node, command: 'evalsha', args: ['sha', '1', 'lock', token(winner), '1000'] });
      t += 0.05 + random() * 0.2;
      push({ type: 'redis', phase: 'ok', opId: id, client: winner, node, command: 'evalsha', reply: 1 });
    }
    // A long tail: most answers in a millisecond or two, a few in tens of milliseconds.
    t += random() < 0.03 ? 10 + random() * 40 : random() * 2;
    const votes = Array.from({ length: NODES }, (_, i) => ({ node: i + 1, ok: true }));
    push({ type: 'lock', client: winner, event: 'acquired', resources: ['lock'], token: token(winner), attempt: 1, quorum: 3, ttlMs: 1_000, validityMs: 985, votes });
    for (let c = 1; c <= CLIENTS; c++) {
      if (c === winner) continue;
      t += random() * 0.5;
      const timedOut = round % 37 === 0 && c === (winner % CLIENTS) + 1;
      push({
        type: 'lock', client: c, event: 'failed', resources: ['lock'], token: token(c), attempt: 1, quorum: 3,
        votes: votes.map((v) => ({ node: v.node, ok: false, ...(timedOut && v.node === 3 ? { error: 'Command timed out' } : {}) })),
      });
    }
    t += 1;
    push({ type: 'job', phase: 'enter', client: winner, job: 'report', execution: round });
    t += 5 + random() * 20;
    push({ type: 'job', phase: 'exit', client: winner, job: 'report', execution: round });
    push({ type: 'lock', client: winner, event: 'released', resources: ['lock'], token: token(winner) });
    if (round % 40 === 0) push({ type: 'nemesis', op: 'node-kill', phase: 'ok', target: 'Node 3', node: 3, args: {}, detail: 'Node 3 killed' });
    if (round % 40 === 20) push({ type: 'nemesis', op: 'node-restart', phase: 'ok', target: 'Node 3', node: 3, args: {}, detail: 'Node 3 restarted' });
    t += 1 + random() * 3;
  }
  return events.slice(0, TARGET);
}

const median = (values: number[]) => percentile(values, 50);

interface Measured {
  measure: number[];
  create: number[];
  redraw: number[];
}

/** Runs in the page, bundled by esbuild with the view's own modules. */
const MEASURE = `
import uPlot from 'uplot';
import { measureRun } from './lib/measurements';
import { latencyChart, timeChart, DEFAULT_COLORS } from './components/measurements/chart-options';
export async function measure(events, origin) {
  const size = { width: 800, height: 200 };
  const hist = document.getElementById('hist');
  const time = document.getElementById('time');
  const flush = async (plots) => {
    // uPlot commits its drawing in a microtask; reading a pixel makes the canvas finish inside the measurement.
    await Promise.resolve();
    for (const p of plots) p.ctx.getImageData(0, 0, 1, 1);
  };
  const times = { measure: [], create: [], redraw: [] };
  let m = measureRun(events, { origin, expectedExecutions: 1 });
  for (let i = 0; i < 30; i++) {
    const s = performance.now();
    m = measureRun(events, { origin, expectedExecutions: 1 });
    times.measure.push(performance.now() - s);
  }
  let plots = [];
  for (let i = 0; i < 31; i++) {
    plots.forEach((p) => p.destroy());
    const s = performance.now();
    const h = latencyChart(m.histogram, m.latency, DEFAULT_COLORS, size);
    const t = timeChart(m, DEFAULT_COLORS, size);
    plots = [new uPlot(h.options, h.data, hist), new uPlot(t.options, t.data, time)];
    await flush(plots);
    // The first is cold code: left out, as a live view has drawn many times before its run reaches 10,000 events.
    if (i > 0) times.create.push(performance.now() - s);
  }
  for (let i = 0; i < 30; i++) {
    const s = performance.now();
    const h = latencyChart(m.histogram, m.latency, DEFAULT_COLORS, size);
    const t = timeChart(m, DEFAULT_COLORS, size);
    plots[0].setData(h.data);
    plots[1].setData(t.data);
    await flush(plots);
    times.redraw.push(performance.now() - s);
  }
  return times;
}
`;

async function timeInChromium(history: HistoryEvent[], origin: number): Promise<Measured> {
  const bundle = await build({
    stdin: { contents: MEASURE, resolveDir: root, loader: 'js' },
    bundle: true,
    format: 'iife',
    globalName: 'Measurements',
    write: false,
    alias: { '@': root },
    logLevel: 'silent',
  });
  const code = bundle.outputFiles[0]?.text ?? '';
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });
    await page.setContent('<!doctype html><div id="hist"></div><div id="time"></div>');
    await page.addScriptTag({ content: code });
    const payload = JSON.stringify(history);
    return await page.evaluate(
      ([json, at]) => (window as unknown as { Measurements: { measure: (e: unknown, o: number) => Promise<Measured> } }).Measurements.measure(JSON.parse(json), at),
      [payload, origin] as const,
    );
  } finally {
    await browser.close();
  }
}

const history = makeHistory();
const origin = history[0]?.t ?? 0;
const m = measureRun(history, { origin, expectedExecutions: 1 });
const nodeTimes: number[] = [];
for (let i = 0; i < 30; i++) {
  const s = performance.now();
  measureRun(history, { origin, expectedExecutions: 1 });
  nodeTimes.push(performance.now() - s);
}
const rows: Row[] = [
  {
    measure: `measurements of ${history.length.toLocaleString('en')} events, ${m.latency.count.toLocaleString('en')} acquires (Node), median`,
    value: ms(median(nodeTimes)),
    goal: '< 50 ms',
    met: median(nodeTimes) < 50,
  },
];
try {
  const browser = await timeInChromium(history, origin);
  rows.push(
    { measure: 'measurements (Chromium), median', value: ms(median(browser.measure)), goal: '< 50 ms', met: median(browser.measure) < 50 },
    { measure: 'both charts created and drawn, 800 px (Chromium), median', value: ms(median(browser.create)), goal: '< 16 ms', met: median(browser.create) < 16 },
    { measure: 'both charts created and drawn (Chromium), p95', value: ms(percentile(browser.create, 95)), goal: '< 16 ms', met: percentile(browser.create, 95) < 16 },
    { measure: 'both charts redrawn with new data (Chromium), median', value: ms(median(browser.redraw)), goal: '< 16 ms', met: median(browser.redraw) < 16 },
  );
} catch (error) {
  rows.push({ measure: 'charts drawn (Chromium)', value: `not measured: ${(error as Error).message.split('\n')[0]}`, goal: '< 16 ms', met: null });
}
printTable(`Measurements: ${TARGET.toLocaleString('en')} events (P50 ${m.latency.p50.toFixed(2)} ms, P99 ${m.latency.p99.toFixed(2)} ms)`, rows);
