/**
 * End-to-end tests in Debian's Chromium against the production build.
 * `npx next build` must have run first (the test script does it); the web
 * server below serves that build through the real custom server
 * (Next + socket.io on one port), exactly as `npm start` does.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
/**
 * A second lab server and the coordination Redis they share, so the classroom
 * e2e runs a class across two servers as a real deployment would: the
 * instructor on the first, the learner on the second.
 */
const portB = Number(process.env.E2E_PORT_B ?? port + 1);
const coordinationPort = Number(process.env.E2E_COORDINATION_PORT ?? port + 90);
/**
 * A server already listening on these ports is used only when asked (E2E_REUSE_SERVER=1, for a developer who keeps
 * one running): by default a test run starts its own, so two checkouts testing at once never test each other's build.
 */
const reuseExistingServer = process.env.E2E_REUSE_SERVER === '1' && !process.env.CI;
export const SERVER_B_URL = `http://127.0.0.1:${portB}`;
process.env.E2E_SERVER_B = SERVER_B_URL;

/**
 * The first server keeps shared runs in PGlite in a folder of its own per port, outside the checkout and kept between
 * test runs (a new folder costs PGlite's initdb, tens of seconds on a busy machine); the second runs without a store,
 * since one folder serves one server.
 */
const storeEnv = (serverPort: number): Record<string, string> =>
  serverPort === port ? { LOCKLAB_DATA_DIR: path.join(os.tmpdir(), `locklab-e2e-store-${serverPort}`) } : { LOCKLAB_STORE: '0' };

const labServer = (serverPort: number) => ({
  command: 'node --import tsx server/index.ts',
  url: `http://127.0.0.1:${serverPort}/playground`,
  env: {
    PORT: String(serverPort),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    LOCKLAB_COORDINATION_URL: `redis://127.0.0.1:${coordinationPort}`,
    // A known instructor token, so e2e/classroom.spec.ts can start a class.
    LOCKLAB_INSTRUCTOR_TOKEN: process.env.E2E_INSTRUCTOR_TOKEN ?? 'e2e-instructor-token',
    ...storeEnv(serverPort),
  },
  reuseExistingServer,
  timeout: 120_000,
  stdout: 'pipe' as const,
  stderr: 'pipe' as const,
  gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
});

/** Specs that must not share the machine with another test. */
const ALONE = /(one-lab-per-tab|experiment)\.spec\.ts/;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/artifacts',
  // Each test gets its own lab of five redis-server processes and its own browser context. Two at a time: a test
  // spends most of its time waiting on a run's pauses and timers, and the tests wait on conditions, not clocks.
  // E2E_WORKERS=1 plays them one by one.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 720 },
    screenshot: 'only-on-failure',
    // A failed test keeps its trace with the page's DOM at every step and a screenshot at the failure, but no
    // screencast: filming every test took about half the CPU of the whole e2e run (CPU time of
    // workspace + errors specs: 101 s with, 53 s without), time the lab's timing-dependent runs then lacked.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    launchOptions: {
      // Debian's Chromium, below the lab server's priority (the script says why).
      executablePath: fileURLToPath(new URL('./e2e/support/chromium-below-the-lab.sh', import.meta.url)),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  // Started in this order: the coordination Redis first, since a server with a coordination URL waits for it.
  projects: [
    { name: 'side-by-side', testIgnore: ALONE },
    // Played once everything else is done, one at a time: one counts every lab the server hands out (/metrics); the
    // experiment plays four timed runs whose figures (and whose 20 s bounds) a neighbour's runs would change.
    { name: 'alone', testMatch: ALONE, dependencies: ['side-by-side'], workers: 1 },
  ],
  webServer: [
    {
      command: `redis-server --port ${coordinationPort} --bind 127.0.0.1 --save "" --appendonly no`,
      port: coordinationPort,
      reuseExistingServer,
      timeout: 30_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
    labServer(port),
    labServer(portB),
  ],
});
