/** Messages between the pool (main thread) and a sandbox worker. Plain structured-clone data only. */
import type { HistoryInput } from '@/lib/history';
import type { ClientOutcome, Diagnostic, RedisCredentials, RunStatus, SandboxLimits } from './types';

export interface RunSpec {
  runId: string;
  /** The learner's source; the worker transpiles it so a huge program never costs the main thread. */
  code: string;
  fileName: string;
  clients: number;
  /** The lab's node ids, for `lab.nodes`. */
  nodes: number[];
  startDelaysMs: number[];
  credentials: RedisCredentials;
  limits: SandboxLimits;
  originEpochMs: number;
  opIdBase: number;
}

export type MainToWorker =
  | { type: 'start'; spec: RunSpec }
  | { type: 'pause'; client: number; ms?: number }
  | { type: 'resume'; client: number }
  | { type: 'crash'; client: number }
  | { type: 'skew'; client: number; skewMs: number }
  | { type: 'stop' }
  | { type: 'resolved'; reqId: number; target: ResolvedTarget };

export type ResolvedTarget =
  | { ok: true; node: number; port: number }
  | { ok: false; code: 'ENOTFOUND' | 'ECONNREFUSED'; node?: number };

export type WorkerToMain =
  | { type: 'ready' }
  | { type: 'events'; events: HistoryInput[] }
  | { type: 'diagnostic'; diagnostic: Diagnostic }
  | { type: 'resolve'; reqId: number; client: number; host: string; port: number }
  | { type: 'done'; status: RunStatus; error?: string; clients: ClientOutcome[] };

/**
 * Shared with the main thread (Float64Array of 3): slot 1 = the client inside, slot 2 = the slice it is allowed (ms);
 * slot 0 holds the epoch ms at which the worker
 * entered learner code (0 while it is outside). The main thread's watchdog
 * reads it without waiting for the worker's event loop, which may be stuck.
 */
export const BUSY_SLOT = 0;
