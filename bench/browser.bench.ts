/**
 * Browser benchmarks (issue 4), in Debian's Chromium against the production
 * build served by the real custom server on a free port (run
 * `NEXT_TELEMETRY_DISABLED=1 npx next build` first):
 *
 * - time to interactive of a lesson page: navigation start → the Run button
 *   enabled and the lab's snapshot shown ("Lab running"), timed inside the
 *   page (performance.now() counts from navigation start), each in a fresh
 *   browser context (empty cache, a new lab);
 * - fault → screen: "Kill Node N" clicked → the card reads `down` in the
 *   DOM, timed inside the page by a MutationObserver, ~30 kills, each node
 *   restarted before it is killed again;
 * - the lesson page's JavaScript, gzip: every script the page loads until
 *   interactive, without the Monaco editor's chunks (loaded lazily, after).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ms, percentile, printTable, type Row } from './stats';

const LESSON = '/lessons/safe-release';
const TTI_SAMPLES = 6;
const KILLS = 30;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startServer(): Promise<{ url: string; child: ChildProcess; runDir: string }> {
  if (!fs.existsSync(path.join('.next', 'BUILD_ID'))) throw new Error('no production build: run `NEXT_TELEMETRY_DISABLED=1 npx next build` first');
  const port = await freePort();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-browser-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', LOCKLAB_RUN_DIR: runDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}${LESSON}`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer within 120 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, child, runDir };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM'); // the server destroys its labs (and their redis-servers) on SIGTERM
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Installed before any page script: records when the page first became usable, on the page's own
 * clock. A string, not a function: tsx's name helpers would not exist inside the page.
 */
const WATCH_INTERACTIVE = `(() => {
  const ready = () => {
    const run = [...document.querySelectorAll('button')].find((b) => (b.textContent || '').trim().endsWith('Run'));
    return run !== undefined && !run.hasAttribute('aria-disabled') && !run.disabled && (document.body ? document.body.textContent || '' : '').includes('Lab running');
  };
  const observer = new MutationObserver(() => {
    if (window.__interactiveMs === undefined && ready()) {
      window.__interactiveMs = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();`;

interface LoadedScript {
  url: string;
  gzipBytes: number;
  monaco: boolean;
}

/** Monaco's chunks: the editor core and its language workers (the TypeScript worker bundles TypeScript's language service). */
const isMonaco = (body: string) =>
  body.includes('monaco-editor') || body.includes('vs/editor') || body.includes('createLanguageService') || /editor\.worker|ts\.worker|typescriptServices/.test(body);

async function timeToInteractive(browser: Browser, url: string, collect: LoadedScript[] | null): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.addInitScript({ content: WATCH_INTERACTIVE });
  const bodies: Promise<void>[] = [];
  if (collect) {
    page.on('response', (response) => {
      const u = response.url();
      if (!u.endsWith('.js') && !u.includes('.js?')) return;
      bodies.push(
        response
          .body()
          .then((body) => void collect.push({ url: u, gzipBytes: zlib.gzipSync(body, { level: 9 }).length, monaco: isMonaco(body.toString('utf8')) }))
          .catch(() => undefined),
      );
    });
  }
  await page.goto(`${url}${LESSON}`);
  await page.waitForFunction('window.__interactiveMs !== undefined', null, { timeout: 60_000 });
  const tti = (await page.evaluate('window.__interactiveMs')) as number;
  if (collect) {
    // Let the lazily loaded editor arrive too, so its chunks are seen (and left out of the total).
    await page.locator('.monaco-editor').waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await Promise.all(bodies);
  }
  await context.close();
  return tti;
}

/** Click → the card reads `down`, timed inside the page (a string: see WATCH_INTERACTIVE). */
async function killToScreen(page: Page, node: number): Promise<number> {
  return (await page.evaluate(`new Promise((resolve, reject) => {
    const kill = document.querySelector('[aria-label="Kill Node ${node}"]');
    const card = kill && kill.closest('section');
    if (!kill || !card) return reject(new Error('no Kill Node ${node} button in a card'));
    const started = performance.now();
    const observer = new MutationObserver(() => {
      const state = card.querySelector('[data-testid="node-state"]');
      if (state && (state.textContent || '').includes('down')) {
        observer.disconnect();
        resolve(performance.now() - started);
      }
    });
    observer.observe(card, { subtree: true, childList: true, characterData: true });
    kill.click();
  })`)) as number;
}

async function faultToScreen(browser: Browser, url: string): Promise<number[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(`${url}/playground`);
  await page.getByText('Lab running').waitFor({ timeout: 60_000 });
  const stateOf = (n: number) => page.getByRole('region', { name: `Node ${n}`, exact: true }).getByTestId('node-state');
  const times: number[] = [];
  for (let i = 0; i < KILLS; i++) {
    const node = (i % 5) + 1;
    await waitForText(stateOf(node), 'up');
    times.push(await killToScreen(page, node));
    // Restart at once; by the time this node comes round again it is up.
    await page.getByRole('button', { name: `Restart Node ${node}`, exact: true }).click();
  }
  for (let n = 1; n <= 5; n++) await waitForText(stateOf(n), 'up');
  await context.close();
  return times;
}

async function waitForText(locator: ReturnType<Page['locator']>, text: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await locator.textContent())?.trim() !== text) {
    if (Date.now() > deadline) throw new Error(`waited 30 s for "${text}"`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const { url, child, runDir } = await startServer();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const scripts: LoadedScript[] = [];
    const tti: number[] = [];
    for (let i = 0; i < TTI_SAMPLES; i++) tti.push(await timeToInteractive(browser, url, i === 0 ? scripts : null));
    const kills = await faultToScreen(browser, url);

    const unique = [...new Map(scripts.map((s) => [s.url, s])).values()];
    const withoutMonaco = unique.filter((s) => !s.monaco).reduce((sum, s) => sum + s.gzipBytes, 0);
    const monaco = unique.filter((s) => s.monaco).reduce((sum, s) => sum + s.gzipBytes, 0);
    const warm = tti.slice(1);
    const rows: Row[] = [
      { measure: `lesson page time to interactive, first load after server start`, value: ms(tti[0] ?? NaN), goal: '≤ 1500 ms', met: (tti[0] ?? Infinity) <= 1500 },
      { measure: `lesson page time to interactive, median of ${warm.length} fresh contexts`, value: ms(percentile(warm, 50)), goal: '≤ 1500 ms', met: percentile(warm, 50) <= 1500 },
      { measure: `lesson page time to interactive, worst of ${warm.length}`, value: ms(Math.max(...warm)), goal: '≤ 1500 ms', met: Math.max(...warm) <= 1500 },
      { measure: `fault → screen p50 (${kills.length} kills)`, value: ms(percentile(kills, 50)), goal: '–', met: null },
      { measure: `fault → screen p95 (${kills.length} kills)`, value: ms(percentile(kills, 95)), goal: '≤ 50 ms', met: percentile(kills, 95) <= 50 },
      { measure: `lesson page JS without Monaco, gzip (${unique.filter((s) => !s.monaco).length} scripts)`, value: kb(withoutMonaco), goal: '≤ 300 KB', met: withoutMonaco <= 300 * 1024 },
      { measure: `Monaco chunks, gzip, loaded after (${unique.filter((s) => s.monaco).length} scripts)`, value: kb(monaco), goal: '–', met: null },
    ];
    if (process.env.BENCH_VERBOSE) for (const s of unique) console.log(`${s.monaco ? 'monaco' : 'page  '} ${kb(s.gzipBytes).padStart(10)} ${s.url}`);
    printTable('Browser: lesson page and fault → screen (headless Chromium, production build)', rows);
  } finally {
    await browser.close();
    await stopServer(child);
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

await main();
