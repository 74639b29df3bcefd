/**
 * The lab server: one HTTP server on one port serving Next.js pages and
 * socket.io, plus the labs behind them. `createLabServer` is what
 * server/index.ts runs and what tests start on a random port.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClassroomHub } from './classroom/classroom-hub';
import { DEFAULT_NODE_GUARD } from './cluster/node-guard';
import { instanceDir, removeLeftovers } from './cluster/run-dir';
import type { ServerConfig } from './config';
import { LabManager } from './lab/lab-manager';
import { createSandboxPool, type SandboxPool } from './sandbox';
import { RunAdmission } from './runs/run-admission';
import { CPU_SETTLE_MS } from './capacity';
import { cpuPressure } from './ops/cpu-pressure';
import { attachRealtime, type LabServer } from './realtime/socket-server';
import { addMetricsSource, metricsText } from './ops/metrics';
import { metricsAllowed } from './ops/metrics-access';
import { BrowserIdentities } from './realtime/browser-identity';
import { configureLinkSockets, startLinkProcess } from './cluster/link-host';
import { nodeHost } from './cluster/node-host/node-host';
import { originAllowed } from './realtime/origin';
import { INSTRUCTOR_SESSION_PATH } from '@/lib/classroom';
import { serverDescriptors } from './ops/descriptors';
import { openStore, type Store } from './store/store';
import { sharedRunRoutes } from './store/shared-runs-http';

async function serveMetrics(res: http.ServerResponse): Promise<void> {
  try {
    const { contentType, body } = await metricsText();
    res.writeHead(200, { 'content-type': contentType }).end(body);
  } catch (error) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${(error as Error).message}\n`);
  }
}

export interface RunningLabServer {
  url: string;
  port: number;
  labs: LabManager;
  io: LabServer;
  classrooms: ClassroomHub;
  /** Runs learner code (null with LOCKLAB_SANDBOX=0). */
  sandbox: SandboxPool | null;
  /** The server's run budget (what runs, what waits, each browser's share). */
  admission: RunAdmission;
  /** The settings it runs with. */
  config: ServerConfig;
  /** What is kept across restarts (server/store/); null with LOCKLAB_STORE=0. */
  store: Store | null;
  close(): Promise<void>;
}

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> | void;

async function nextHandler(dev: boolean, port: number): Promise<RequestHandler> {
  const { default: next } = await import('next');
  // Next names this host in the URLs it builds for itself, not where it listens (our HTTP server does that). It must be
  // 'localhost': the proxy's request URL is always built with it, and a language rewrite (`/playground` → `/en/playground`)
  // to any other origin is taken for an external one — the page answered with a redirect to itself, forever.
  const app = next({ dev, dir: projectDir, hostname: 'localhost', port });
  await app.prepare();
  return app.getRequestHandler();
}

export async function createLabServer(config: ServerConfig): Promise<RunningLabServer> {
  const leftovers = removeLeftovers(config.runRoot);
  if (leftovers.instances.length)
    console.log(`[locklab] removed leftovers of ${leftovers.instances.length} stopped server(s); killed redis-server pid(s): ${leftovers.killed.join(', ') || 'none'}`);
  const runDir = instanceDir(config.runRoot);
  // Not world-readable: the labs' data and PID files live below it (node configs are never written: they go on stdin).
  fs.mkdirSync(runDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(runDir, 0o700);
  // Each lab's share of the link process's descriptors, and the web server's own reserve (issue 28, item 3).
  configureLinkSockets({ labs: config.maxLabs, perLab: config.linkSocketsPerLab });
  const endReserve = serverDescriptors.keep(config.descriptorReserve);
  // Opened beside the link process's start (PGlite takes seconds to start): a store that cannot open stops the
  // start with one sentence (server/index.ts), like a link process that cannot run.
  const storeOpening = openStore(config.store, config.sharedRuns);
  const openedStore = storeOpening.catch(() => null);
  let store: Store | null;
  try {
    // Before anything else: a link process or node host that cannot run here would fail every run or every lab,
    // so the server does not start.
    await Promise.all([startLinkProcess(), nodeHost().start()]);
    store = await storeOpening;
  } catch (error) {
    await (await openedStore)?.close();
    endReserve();
    fs.rmSync(runDir, { recursive: true, force: true });
    throw error;
  }
  // The pool's own cap is a backstop: admission queues runs well below it.
  const sandbox = config.sandbox
    ? createSandboxPool({
        commandRate: config.commandRate,
        maxRuns: config.maxRuns + 8,
        hosts: config.sandboxHosts,
        limits: { wallClockMs: config.runWallClockMs },
        ...(config.sandboxHostFds !== null ? { hostDescriptors: config.sandboxHostFds } : {}),
      })
    : null;
  try {
    // Like the link process: sandbox hosts that cannot run here would fail every run, so the server does not start.
    await sandbox?.start();
  } catch (error) {
    await sandbox?.close();
    await store?.close();
    endReserve();
    fs.rmSync(runDir, { recursive: true, force: true });
    throw error;
  }
  const labs = new LabManager({
    dir: runDir,
    maxLabs: config.maxLabs,
    idleMs: config.labIdleMs,
    warmLabs: config.warmLabs,
    nodeGuard: { ...DEFAULT_NODE_GUARD, rssBudgetMb: config.nodeRssMb },
    history: config.history,
    waitMs: config.labWaitMs,
    yieldIdleMs: config.labYieldIdleMs,
  });

  let handle: RequestHandler = (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Lock Lab: pages are not served by this instance (LOCKLAB_WEB=0)\n');
  };
  const identities = new BrowserIdentities({ secret: config.cookieSecret, workBits: config.identityWorkBits });
  const sharedRunsDoor = sharedRunRoutes({ store, identities, allowedOrigins: config.allowedOrigins, bounds: config.sharedRuns });
  const server = http.createServer((req, res) => {
    if (req.url === '/metrics' && req.method === 'GET') {
      if (metricsAllowed(req, config.metricsToken)) return void serveMetrics(res);
      return void res.writeHead(403, { 'content-type': 'text/plain' }).end('Lock Lab: /metrics is served on this machine only, or with the bearer token LOCKLAB_METRICS_TOKEN\n');
    }
    if (req.url === INSTRUCTOR_SESSION_PATH) return void classrooms.serveSession(req, res, (r) => originAllowed(r, config.allowedOrigins) && r.headers.origin !== undefined);
    // A page buys its browser's identity here with work before it opens its socket (browser-identity.ts).
    if (identities.handle(req, res)) return;
    if (sharedRunsDoor(req, res)) return;
    void handle(req, res);
  });
  const admission = new RunAdmission({
    memoryBudgetBytes: config.runMemoryMb * 2 ** 20,
    maxConcurrent: config.maxRuns,
    maxQueued: config.runQueue,
    maxWaitMs: config.runWaitMs,
    perOwner: { runs: config.runsPerBrowser, memoryBytes: config.runMemoryPerBrowserMb * 2 ** 20 },
    sliceMs: config.runSliceMs,
    ...(config.cpuPressureLimit < 100
      ? { cpu: { floor: config.cpuFloorRuns, limit: config.cpuPressureLimit / 100, settleMs: CPU_SETTLE_MS, pressure: cpuPressure() } }
      : {}),
  });
  const classrooms = new ClassroomHub({
    coordinationUrl: config.coordinationUrl,
    instructorToken: config.instructorToken,
    instructorTokenFile: path.join(runDir, 'instructor-token'),
    maxLearners: config.classroomMaxLearners,
    idleMs: config.classroomIdleMs,
    instructorAwayMs: config.classroomInstructorAwayMs,
    actionBurst: config.actionBurst,
    actionRatePerSecond: config.actionRatePerSecond,
  });
  const io = attachRealtime(server, labs, {
    allowedOrigins: config.allowedOrigins,
    sandbox,
    admission,
    classrooms,
    labActionLimit: { burst: config.labActionBurst, perSecond: config.labActionRatePerSecond },
    perLabLimit: { burst: config.perLabBurst, perSecond: config.perLabRatePerSecond },
    flood: { refusals: config.floodRefusals, windowMs: config.floodWindowMs },
    identities,
    labsPerBrowser: config.labsPerBrowser,
    gradingSpareLabs: config.gradingSpareLabs,
    socketsPerBrowser: config.socketsPerBrowser,
  });
  const removeMetrics = addMetricsSource({
    labs: () => labs.size,
    runs: () => sandbox?.activeRuns ?? 0,
    queuedRuns: () => admission.waiting,
    nodes: () => labs.all().reduce((n, lab) => n + lab.nodes.filter((node) => node.pid !== null).length, 0),
    workers: () => sandbox?.workers ?? 0,
    historyBytes: () => labs.all().reduce((n, lab) => n + lab.history.bytes, 0),
    sockets: () => io.engine.clientsCount,
  });
  try {
    await classrooms.ready();
  } catch (error) {
    removeMetrics();
    endReserve();
    await labs.closeAll();
    await sandbox?.close();
    await store?.close();
    io.close();
    throw error;
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  if (config.web) handle = await nextHandler(config.dev, port);

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      removeMetrics();
      await classrooms.close();
      await labs.closeAll();
      await sandbox?.close();
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await classrooms.disconnect();
      server.closeAllConnections();
      await store?.close();
      endReserve();
      fs.rmSync(runDir, { recursive: true, force: true });
    })());

  return { url: `http://${config.host}:${port}`, port, labs, io, classrooms, sandbox, admission, config, store, close };
}
