/**
 * A sandbox host: a process of its own that holds learners' QuickJS worker
 * threads, so their CPU, their garbage collection and compiler threads, their
 * sockets and a crash are its own and never the web server's. Started by
 * `sandbox-host.ts` from a bundle on its standard input (it never reads the
 * checkout), as a uid of its own when the server is root, at a nice value
 * below the server's, with a heap of its own and a parent-death signal.
 *
 * It boots workers when the pool asks (warm spares live here), relays each
 * worker's messages both ways, and watches them: the stuck-worker watchdog
 * runs here, next to the threads, reading their shared "busy" slots.
 */
import { Worker } from 'node:worker_threads';
import { BUSY, BUSY_SLOTS, type MainToWorker, type WorkerToMain } from '../protocol';
import { stuckInLearnerCode } from '../watchdog';
import { serverDescriptors } from '../../ops/descriptors';
import type { FromHost, HostBoot, ToHost, WorkerEnd } from './protocol';

/** How often the watchdog looks at the running workers; cheap (one shared-memory read each, /proc only for a long slice). */
const WATCHDOG_MS = 20;

interface HostedWorker {
  worker: Worker;
  busy: Float64Array;
  /** Set once a run has started on it: the grace the watchdog allows past a slice. */
  hardKillGraceMs: number | null;
  /** Whether the pool has been told this worker ended (it is told once). */
  told: boolean;
}

const workers = new Map<number, HostedWorker>();
let boot: (HostBoot & { module: WebAssembly.Module }) | null = null;
/** Messages that came before the boot data was compiled. */
const early: ToHost[] = [];

function send(message: FromHost): void {
  // The server may be gone: the send then fails and this process exits on the disconnect that follows.
  if (process.connected) process.send?.(message, undefined, undefined, () => undefined);
}

function ended(id: number, end: WorkerEnd): void {
  const hosted = workers.get(id);
  if (!hosted || hosted.told) return;
  hosted.told = true;
  send({ type: 'ended', id, end });
}

function spawnWorker(id: number): void {
  if (!boot) throw new Error('spawn before boot');
  const shared = new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * BUSY_SLOTS);
  const worker = new Worker(boot.workerSource, {
    eval: true,
    // `descriptors`: this host's count of its own descriptors, which learners' connections leave a reserve of.
    workerData: { busy: shared, wasmModule: boot.module, guestSources: boot.guestSources, descriptors: serverDescriptors.shared, nice: boot.nice },
    // The QuickJS heaps live in WebAssembly memory (each capped per client); this bounds the worker's own JS
    // heap, where Redis replies land before they reach a client. A few 16 MB replies at once end this run
    // (ERR_WORKER_OUT_OF_MEMORY), never the host, let alone the server.
    resourceLimits: { maxOldGenerationSizeMb: boot.workerHeapMb, maxYoungGenerationSizeMb: 16 },
    stdout: false,
    stderr: false,
  });
  const hosted: HostedWorker = { worker, busy: new Float64Array(shared), hardKillGraceMs: null, told: false };
  workers.set(id, hosted);
  worker.on('message', (m: WorkerToMain) => {
    if (m.type === 'ready') send({ type: 'ready', id, tid: (hosted.busy[BUSY.tid] ?? 0) > 0 ? hosted.busy[BUSY.tid]! : null });
    else send({ type: 'from-worker', id, message: m });
  });
  worker.on('error', (error: Error & { code?: string }) => ended(id, { kind: 'error', message: error.message, ...(error.code ? { code: error.code } : {}) }));
  worker.on('exit', () => {
    ended(id, { kind: 'exit' });
    workers.delete(id);
  });
}

function handle(message: ToHost): void {
  if (message.type === 'boot') return;
  if (!boot) {
    early.push(message);
    return;
  }
  switch (message.type) {
    case 'spawn':
      spawnWorker(message.id);
      return;
    case 'to-worker': {
      const hosted = workers.get(message.id);
      if (!hosted) return;
      if (message.message.type === 'start') hosted.hardKillGraceMs = message.message.spec.limits.hardKillGraceMs;
      hosted.worker.postMessage(message.message satisfies MainToWorker);
      return;
    }
    case 'terminate': {
      const hosted = workers.get(message.id);
      if (!hosted) return;
      hosted.told = true;
      void hosted.worker.terminate();
      return;
    }
  }
}

async function start(data: HostBoot): Promise<void> {
  // Compiled once here and shared with every worker of this host: no per-worker compile on two cores.
  const module = await WebAssembly.compile(data.wasm);
  boot = { ...data, module };
  // This process's descriptors, counted a few times a second: its workers' connections stop short of its reserve.
  const limit = Math.min(serverDescriptors.limit, data.descriptorLimit ?? Infinity);
  serverDescriptors.keep(serverDescriptors.limit - limit + data.descriptorReserve);
  send({ type: 'booted' });
  for (const message of early.splice(0)) handle(message);
}

process.on('message', (message: ToHost) => {
  if (message.type === 'boot') {
    // A host that cannot compile QuickJS cannot serve a run: it exits, and the server says why.
    start(message).catch((error: unknown) => {
      console.error(`[locklab] sandbox host could not boot: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(70);
    });
    return;
  }
  handle(message);
});

const watchdog = setInterval(() => {
  const epochNow = Date.now();
  for (const [id, hosted] of workers) {
    if (hosted.hardKillGraceMs === null || hosted.told) continue;
    const reason = stuckInLearnerCode(hosted.busy, epochNow, hosted.hardKillGraceMs);
    if (reason === null) continue;
    ended(id, { kind: 'stuck', reason });
    void hosted.worker.terminate();
  }
}, WATCHDOG_MS);
watchdog.unref();

// The server is gone (exited, killed, crashed): so are we, and every run with us (the parent-death signal
// does the same when the server is SIGKILLed).
process.on('disconnect', () => process.exit(0));
// Ctrl-C or a supervisor's SIGTERM reaches the whole process group: the server ends its runs and exits,
// which ends us above. Only if it never does, we go on our own.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => setTimeout(() => process.exit(0), 10_000).unref());
}
