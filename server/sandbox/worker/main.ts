/**
 * Entry of a sandbox worker thread (loaded through worker-boot.mjs). It loads
 * its own QuickJS WebAssembly module and the guest sources, then runs the one
 * run the pool sends it.
 */
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { newQuickJSWASMModule, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { LEARNER_NICE } from '../../ops/priority';
import type { MainToWorker, WorkerToMain } from '../protocol';
import { currentThreadId } from '../thread-cpu';
import { transpileLearnerCode } from '../transpile';
import { GUEST_NAMES } from './guest-names';
import { installHost } from './guest-runtime';
import { SandboxRun } from './run';
import { SliceMeter } from './slice-meter';
import { sharedDescriptorRoom } from './descriptor-room';

/**
 * Where there is no thread id (not Linux) there is nothing to lower; on Linux,
 * raising one's own nice value is always allowed, so a failure is a bug and
 * fails the worker's boot rather than hiding (a swallowed error here once left
 * every learner at nice 0: the nice value was read above its declaration).
 */
function lowerThreadPriority(tid: number | null): void {
  if (tid !== null) setPriority(tid, LEARNER_NICE);
}

const WARM_UP_PROGRAM = `import Redis from 'ioredis';
const r: Redis = new Redis({ host: 'redis-1', port: 6379 });
export async function f(key: string): Promise<string | null> { for (const x of [1, 2]) await r.get(key + x); return r.get(key); }
`;

/** Evaluated in this order in every client: core.js first (it takes `__host`), then the modules that build on what it shares. */
const GUEST_FILES = ['core.js', 'basics.js', 'redis-shared.js', 'ioredis.js', 'node-redis.js', 'redlock.js'];

const port = parentPort;
if (!port) throw new Error('sandbox worker must run in a worker thread');
const data = workerData as { busy: SharedArrayBuffer; wasmModule: WebAssembly.Module; descriptors: SharedArrayBuffer };
const room = sharedDescriptorRoom(data.descriptors);
const tid = currentThreadId();
lowerThreadPriority(tid);
const meter = new SliceMeter(tid, new Float64Array(data.busy));
const post = (m: WorkerToMain) => port.postMessage(m);

const guestSources = GUEST_FILES.map((name) => ({
  name: `lab:${name}`,
  code: readFileSync(new URL(`../guest/${name}`, import.meta.url), 'utf8'),
}));
// The pool compiles QuickJS's WebAssembly once and shares it: no per-worker compile on our two cores.
const quickjs = await newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmModule: data.wasmModule }));
warmUp();
let run: SandboxRun | null = null;

port.on('message', (m: MainToWorker) => {
  if (m.type === 'start') {
    if (run) return;
    run = new SandboxRun(m.spec, quickjs, guestSources, meter, post, room);
    run.start();
    return;
  }
  if (!run) return;
  switch (m.type) {
    case 'pause':
      run.client(m.client)?.pause(m.ms);
      break;
    case 'resume':
      run.client(m.client)?.resume();
      break;
    case 'crash':
      run.client(m.client)?.end('crashed');
      break;
    case 'skew':
      run.client(m.client)?.setSkew(m.skewMs);
      break;
    case 'stop':
      run.stop();
      break;
    case 'pace':
      run.pacer.setRate(m.commandsPerSecond);
      break;
  }
});
post({ type: 'ready' });

/**
 * Evaluates the guest modules once in a throwaway context while the worker is
 * still a spare: WebAssembly tiers up on first use, and otherwise the first
 * clients of a run would each pay ~100 ms instead of ~10 ms to boot.
 */
function warmUp(): void {
  transpileLearnerCode(WARM_UP_PROGRAM, 'warm-up.ts');
  const runtime = quickjs.newRuntime();
  const ctx = runtime.newContext();
  // The same handshake as a client's boot, with stubs: only 'info' needs an answer for the modules to load.
  installHost(ctx, {
    call: (op) => (op === GUEST_NAMES.call.info ? { client: 0, clients: 1, nodes: [] } : undefined),
    now: () => 0,
    perf: () => 0,
  });
  for (let round = 0; round < 3; round++) {
    for (const source of guestSources) {
      const r = ctx.evalCode(source.code, source.name);
      if (r.error) r.error.dispose();
      else r.value.dispose();
    }
  }
  ctx.dispose();
  runtime.dispose();
}
