/**
 * Benchmark: the timeline with 10,000 history events (goal: a redraw under
 * 16 ms, one frame at 60 Hz).
 * Run: node --import tsx bench/timeline.bench.ts
 *
 * The history is a seeded Redlock run: five clients contend for one lock on
 * five nodes (attempts with votes, holds, extensions, critical sections,
 * releases, raw Redis commands), with pauses and nemesis operations. The pure
 * layout is timed here in Node; layout and drawing are then timed in headless
 * Chromium (Debian's /usr/bin/chromium via Playwright) on a real 2D canvas,
 * the code bundled with esbuild from components/timeline. Medians of 30 runs.
 */
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from '@playwright/test';
import type { HistoryEvent, HistoryInput } from '../lib/history';
import { layoutTimeline } from '../components/timeline/layout';
import { ms, percentile, printTable, type Row } from './stats';

const TARGET = 10_000;
const NODES = 5;
const CLIENTS = 5;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function makeHistory(): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  let t = 0;
  let opId = 0;
  const push = (input: HistoryInput) => events.push({ ...input, seq: events.length, t: input.t ?? t } as HistoryEvent);
  for (let c = 1; c <= CLIENTS; c++) push({ type: 'client', client: c, event: 'start' });
  let round = 0;
  while (events.length < TARGET) {
    round++;
    const winner = 1 + Math.floor(random() * CLIENTS);
    const token = `tok-${round}`;
    for (let c = 1; c <= CLIENTS; c++) push({ type: 'lock', client: c, event: 'attempt', resources: ['lock'], token: c === winner ? token : `${token}-${c}`, attempt: 1 });
    for (let node = 1; node <= NODES; node++) {
      const id = ++opId;
      push({ type: 'redis', phase: 'invoke', opId: id, client: winner, node, command: 'set', args: ['lock', token, 'NX', 'PX', '1000'] });
      t += 0.1;
      push({ type: 'redis', phase: 'ok', opId: id, client: winner, node, command: 'set', reply: 'OK' });
    }
    const votes = Array.from({ length: NODES }, (_, i) => ({ node: i + 1, ok: true }));
    push({ type: 'lock', client: winner, event: 'acquired', resources: ['lock'], token, quorum: 3, ttlMs: 1_000, validityMs: 985, votes });
    for (let c = 1; c <= CLIENTS; c++) {
      if (c !== winner) push({ type: 'lock', client: c, event: 'failed', resources: ['lock'], token: `${token}-${c}`, quorum: 3, votes: votes.map((v) => ({ ...v, ok: false })) });
    }
    t += 1;
    push({ type: 'job', phase: 'enter', client: winner, job: 'report', execution: round });
    t += 5 + random() * 20;
    if (round % 7 === 0) push({ type: 'lock', client: winner, event: 'extended', resources: ['lock'], token, ttlMs: 1_000, validityMs: 985 });
    if (round % 50 === 0) {
      push({ type: 'client', client: winner, event: 'pause', durationMs: 30 });
      t += 30;
      push({ type: 'client', client: winner, event: 'resume' });
    }
    push({ type: 'job', phase: 'exit', client: winner, job: 'report', execution: round });
    push({ type: 'lock', client: winner, event: 'released', resources: ['lock'], token });
    if (round % 40 === 0) push({ type: 'nemesis', op: 'node-kill', phase: 'ok', target: 'Node 3', node: 3, args: {}, detail: 'Node 3 killed' });
    t += 1 + random() * 3;
  }
  return events.slice(0, TARGET);
}

function median(values: number[]): number {
  return percentile(values, 50);
}

interface Measured {
  layout: number[];
  /** A live batch of 250 events folded into the layout of the history before it (what the page does), near 10,000. */
  liveLayout: number[];
  cold: number;
  drawFull: number[];
  drawZoom: number[];
  intervals: number;
}

/** Runs in the page, bundled by esbuild with the timeline's own modules. */
const MEASURE = `
import { IncrementalLayout, layoutTimeline } from './components/timeline/layout';
import { drawTimeline, DEFAULT_GEOMETRY, LIGHT_THEME, timelineHeight } from './components/timeline/draw';
export function measure(events) {
  const canvas = document.getElementById('c');
  const width = 1200;
  const layoutTimes = [];
  let layout = layoutTimeline(events);
  for (let i = 0; i < 30; i++) {
    const s = performance.now();
    layout = layoutTimeline(events);
    layoutTimes.push(performance.now() - s);
  }
  const height = timelineHeight(DEFAULT_GEOMETRY, layout.lanes.length);
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  const geometry = { ...DEFAULT_GEOMETRY, width };
  const span = layout.t1 - layout.t0;
  const draw = (view) => {
    const s = performance.now();
    drawTimeline(ctx, { layout, geometry, height, view, theme: LIGHT_THEME, band: { from: layout.t0 + span * 0.4, to: layout.t0 + span * 0.41 }, cursorT: layout.t0 + span / 2 });
    // Reading a pixel makes the canvas finish its drawing inside the measurement.
    ctx.getImageData(0, 0, 1, 1);
    return performance.now() - s;
  };
  const drawFull = [];
  const drawZoom = [];
  // A page opened on a finished run draws the whole history once, cold.
  const cold = draw({ from: layout.t0, to: layout.t1 });
  // A live run draws its timeline again for every batch while the history grows, so by the time it
  // holds 10,000 events the drawing code has run hundreds of times: replay that growth before timing.
  // The page folds each batch into the layout it has (IncrementalLayout): time that at the last batches.
  const live = new IncrementalLayout();
  const liveLayout = [];
  for (let n = 500; n <= events.length; n += 250) {
    const batch = events.slice(0, n);
    const s = performance.now();
    const part = live.layout(batch);
    if (n > events.length - 20 * 250) liveLayout.push(performance.now() - s);
    drawTimeline(ctx, { layout: part, geometry, height, view: { from: part.t0, to: part.t1 }, theme: LIGHT_THEME });
  }
  ctx.getImageData(0, 0, 1, 1);
  for (let i = 0; i < 30; i++) drawFull.push(draw({ from: layout.t0, to: layout.t1 }));
  for (let i = 0; i < 30; i++) drawZoom.push(draw({ from: layout.t0 + span * 0.45, to: layout.t0 + span * 0.55 }));
  const intervals = layout.lanes.reduce((n, l) => n + l.intervals.length, 0);
  return { layout: layoutTimes, liveLayout, cold, drawFull, drawZoom, intervals };
}
`;

async function timeInChromium(history: HistoryEvent[]): Promise<Measured> {
  const bundle = await build({
    stdin: {
      contents: MEASURE,
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    format: 'iife',
    globalName: 'Timeline',
    write: false,
    alias: { '@': root },
    logLevel: 'silent',
  });
  const code = bundle.outputFiles[0]?.text ?? '';
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });
    await page.setContent('<!doctype html><canvas id="c"></canvas>');
    await page.addScriptTag({ content: code });
    // The measuring code lives in the bundle (MEASURE below), so nothing tsx compiled is serialised into the page.
    // Handed over as plain JSON (typing the event union through evaluate() is too deep for tsc).
    const payload = JSON.stringify(history);
    return await page.evaluate((json: string) => (window as unknown as { Timeline: { measure: (e: unknown) => Measured } }).Timeline.measure(JSON.parse(json)), payload);
  } finally {
    await browser.close();
  }
}

const history = makeHistory();
layoutTimeline(history); // warm up
const nodeTimes: number[] = [];
for (let i = 0; i < 30; i++) {
  const s = performance.now();
  layoutTimeline(history);
  nodeTimes.push(performance.now() - s);
}
const rows: Row[] = [{ measure: `layout of ${history.length.toLocaleString('en')} events (Node), median`, value: ms(median(nodeTimes)), goal: '–', met: null }];
try {
  const browser = await timeInChromium(history);
  const redraw = median(browser.drawFull);
  rows.push(
    { measure: 'layout (Chromium), median', value: ms(median(browser.layout)), goal: '–', met: null },
    { measure: `draw whole run, ${browser.intervals.toLocaleString('en')} intervals (Chromium), median`, value: ms(redraw), goal: '< 16 ms', met: redraw < 16 },
    { measure: 'first draw of the whole run on a fresh page (Chromium, cold code)', value: ms(browser.cold), goal: '–', met: null },
    { measure: 'draw whole run (Chromium), p95', value: ms(percentile(browser.drawFull, 95)), goal: '< 16 ms', met: percentile(browser.drawFull, 95) < 16 },
    { measure: 'draw zoomed to 10% (Chromium), median', value: ms(median(browser.drawZoom)), goal: '< 16 ms', met: median(browser.drawZoom) < 16 },
    {
      measure: 'live batch of 250 at 10,000: layout + draw (Chromium), median',
      value: ms(median(browser.liveLayout) + redraw),
      goal: '< 16 ms',
      met: median(browser.liveLayout) + redraw < 16,
    },
  );
} catch (error) {
  rows.push({ measure: 'draw (Chromium)', value: `not measured: ${(error as Error).message.split('\n')[0]}`, goal: '< 16 ms', met: null });
}
printTable('Timeline: 10,000 events', rows);
