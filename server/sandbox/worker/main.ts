/**
 * Entry of a sandbox worker thread, run from one bundle of itself and what it
 * imports (worker-source.ts), inside a sandbox host process (host/host-process.ts).
 * It instantiates the QuickJS WebAssembly module and the guest sources its host
 * hands it, then runs the one run the pool sends it through the host.
 */
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { newQuickJSWASMModule, newVariant, RELEASE_SYNC, type QuickJSWASMModule } from 'quickjs-emscripten';
import type { GuestSource } from '../guest-sources';
import { SANDBOX_HOST_NICE } from '../../ops/priority';
import type { MainToWorker, WorkerToMain } from '../protocol';
import { currentThreadId } from '../thread-cpu';
import { transpileLearnerCode } from '../transpile';
import { GUEST_NAMES } from './guest-names';
import { installHost } from './guest-runtime';
import { SandboxRun } from './run';
import { SliceMeter } from './slice-meter';
import { sharedDescriptorRoom } from './descriptor-room';

/**
 * A worker thread inherits its host's nice value (the host is started at it);
 * this makes sure, and lowers the thread if it was not there. Where there is
 * no thread id (not Linux) there is nothing to lower; on Linux, raising one's
 * own nice value is always allowed, so a failure is a bug and fails the
 * worker's boot rather than hiding (a swallowed error here once left every
 * learner at nice 0: the nice value was read above its declaration).
 */
function lowerThreadPriority(tid: number | null, nice: number): void {
  if (tid !== null && getPriority(tid) < nice) setPriority(tid, nice);
}

const WARM_UP_PROGRAM = `import Redis from 'ioredis';
const r: Redis = new Redis({ host: 'redis-1', port: 6379 });
export async function f(key: string): Promise<string | null> { for (const x of [1, 2]) await r.get(key + x); return r.get(key); }
`;

if (!parentPort) throw new Error('sandbox worker must run in a worker thread');
const port = parentPort;
const data = workerData as {
  busy: SharedArrayBuffer;
  wasmModule: WebAssembly.Module;
  guestSources: readonly GuestSource[];
  descriptors: SharedArrayBuffer;
  /** The host's nice value (absent: the sandbox hosts' default). */
  nice?: number;
};
const room = sharedDescriptorRoom(data.descriptors);
const tid = currentThreadId();
lowerThreadPriority(tid, data.nice ?? SANDBOX_HOST_NICE);
const meter = new SliceMeter(tid, new Float64Array(data.busy));
const post = (m: WorkerToMain) => port.postMessage(m);

const guestSources = data.guestSources;
let run: SandboxRun | null = null;

// The bundle is a CommonJS script (no top-level await): the worker listens once QuickJS is instantiated. A
// failure here is a broken install; it ends the worker with the error, which the pool reports for its run.
void boot().catch((error: unknown) => {
  throw error;
});

async function boot(): Promise<void> {
  // The pool compiles QuickJS's WebAssembly once and shares it: no per-worker compile on our two cores.
  const quickjs = await newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmModule: data.wasmModule }));
  warmUp(quickjs);
  port.on('message', (m: MainToWorker) => onMessage(m, quickjs));
  post({ type: 'ready' });
}

function onMessage(m: MainToWorker, quickjs: QuickJSWASMModule): void {
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
    case 'break':
      run.setBreakpoint(m.when);
      break;
    case 'continue':
      run.continueFromBreakpoint(m.step);
      break;
  }
}

/**
 * Evaluates the guest modules once in a throwaway context while the worker is
 * still a spare: WebAssembly tiers up on first use, and otherwise the first
 * clients of a run would each pay ~100 ms instead of ~10 ms to boot.
 */
function warmUp(quickjs: QuickJSWASMModule): void {
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
