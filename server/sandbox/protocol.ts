/** Messages between the pool (main thread) and a sandbox worker. Plain structured-clone data only. */
import type { HistoryInput } from '@/lib/history';
import type { Words } from '@/lib/words';
import type { ArmedFault } from './worker/armed-faults';
import type { Trigger } from '@/lib/scenario';
import type { ClientOutcome, Diagnostic, RedisCredentials, RunStatus, SandboxLimits } from './types';

export interface RunSpec {
  runId: string;
  /** The learner's source; the worker transpiles it so a huge program never costs the main thread. */
  code: string;
  fileName: string;
  clients: number;
  /** The lab's node ids, for `lab.nodes`. */
  nodes: number[];
  /**
   * Where each client reaches each node: `linkPorts["2:3"]` is Client 2's link to Node 3 (absent: not reachable).
   * Fixed before the run starts, so the worker resolves a learner's host name itself, without asking.
   */
  linkPorts: Record<string, number>;
  startDelaysMs: number[];
  credentials: RedisCredentials;
  limits: SandboxLimits;
  originEpochMs: number;
  opIdBase: number;
  /** This run's share of the server's Redis command rate (commands per second; Infinity: unpaced). */
  commandsPerSecondShare: number;
  /** Scenario steps on the clients that wait for an event of the run: carried out in the worker (armed-faults.ts). */
  armed: ArmedFault[];
  /** The learner's breakpoint ("pause the run when …"), watched in the worker (worker/breakpoint.ts); null: none. */
  breakpoint: Trigger | null;
  /** The run's seed: each client's Math.random, crypto and store latencies are drawn from it (worker/client-random.ts). */
  seed: number;
}

export type MainToWorker =
  | { type: 'start'; spec: RunSpec }
  | { type: 'pause'; client: number; ms?: number }
  | { type: 'resume'; client: number }
  | { type: 'crash'; client: number }
  | { type: 'skew'; client: number; skewMs: number }
  | { type: 'stop' }
  /** The learner's breakpoint, set or cleared while the run goes. */
  | { type: 'break'; when: Trigger | null }
  /** Let the clients a breakpoint froze go; `step`: stop again at the next answered command. */
  | { type: 'continue'; step: boolean }
  /** A new share of the server's command rate (runs started or ended). */
  | { type: 'pace'; commandsPerSecond: number };

export type ResolvedTarget =
  | { ok: true; node: number; port: number }
  | { ok: false; code: 'ENOTFOUND' | 'ECONNREFUSED'; node?: number };

export type WorkerToMain =
  | { type: 'ready' }
  | { type: 'events'; events: HistoryInput[] }
  | { type: 'diagnostic'; diagnostic: Diagnostic }
  /** The run stands at a breakpoint (its wall clock is held) or goes on. */
  | { type: 'held'; on: boolean }
  | { type: 'done'; status: RunStatus; error?: string; errorWords?: Words; clients: ClientOutcome[] };

/**
 * The "busy" slots a worker shares with the main thread's watchdog (a Float64Array of BUSY_SLOTS).
 * The watchdog reads them without waiting for the worker's event loop, which may be stuck inside
 * learner code. The worker writes `since` last when a slice begins and clears it first when it ends.
 */
export const BUSY = {
  /** Epoch ms at which the worker entered learner code; 0 while it is outside. */
  since: 0,
  /** The client inside. */
  client: 1,
  /** The slice that client is allowed (CPU ms). */
  allowedMs: 2,
  /** The worker's Linux thread id (0 if unknown), written once at boot: the watchdog reads its CPU time. */
  tid: 3,
  /** The worker thread's CPU ms at the slice's start (-1 if unknown: the watchdog falls back to wall clock). */
  cpuAtStart: 4,
} as const;
export const BUSY_SLOTS = 5;

/**
 * Wall clock is only a safety net behind the CPU limits, for a thread that is stuck without running
 * (or where CPU time cannot be read): on a loaded machine a worker can wait for a core far longer
 * than its slice, and that must not count against the learner.
 */
export const WALL_NET_FACTOR = 10;

