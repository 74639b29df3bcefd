/**
 * Messages between the web server's sandbox pool and one sandbox host process
 * (over the child's IPC channel, Node's `advanced` serialization: the
 * structured clone the worker threads use too, so a run's event batches cross
 * it as they crossed a MessagePort, and the QuickJS bytes as one Uint8Array).
 * Workers are named by a number the pool hands out; the host relays each
 * worker's messages both ways and says when one failed, ended or was stuck.
 */
import type { Said } from '@/lib/words';
import type { GuestSource } from '../guest-sources';
import type { MainToWorker, WorkerToMain } from '../protocol';

/** Everything a host needs to run workers, sent first: it never reads the checkout. */
export interface HostBoot {
  type: 'boot';
  /** QuickJS's WebAssembly, compiled once in the host and shared by its workers. */
  wasm: Uint8Array<ArrayBuffer>;
  guestSources: readonly GuestSource[];
  /** The worker threads' program (server/sandbox/worker/main.ts bundled). */
  workerSource: string;
  /** Each worker's own JS heap (old generation), MB. */
  workerHeapMb: number;
  /** The nice value the host runs at: each worker checks its thread is there (worker/main.ts). */
  nice: number;
  /** Descriptors the host keeps for itself (its IPC channel, its workers' own): learners' connections leave them alone. */
  descriptorReserve: number;
  /** The most descriptors the host may hold (LOCKLAB_SANDBOX_HOST_FDS); null: its RLIMIT_NOFILE. */
  descriptorLimit: number | null;
}

export type ToHost =
  | HostBoot
  /** Boot a worker thread and keep it warm until a run's `start` reaches it. */
  | { type: 'spawn'; id: number }
  | { type: 'to-worker'; id: number; message: MainToWorker }
  | { type: 'terminate'; id: number };

/** Why a worker stopped serving its run, as the host saw it. */
export type WorkerEnd =
  | { kind: 'error'; message: string; code?: string }
  | { kind: 'exit' }
  /** The host's watchdog terminated it: stuck inside learner code (watchdog.ts). */
  | { kind: 'stuck'; reason: Said };

export type FromHost =
  /** The host has compiled QuickJS and takes workers (the server's start waits for it). */
  | { type: 'booted' }
  /** Worker `id` has booted; `tid` is its Linux thread id in the host (null where there is none). */
  | { type: 'ready'; id: number; tid: number | null }
  | { type: 'from-worker'; id: number; message: WorkerToMain }
  | { type: 'ended'; id: number; end: WorkerEnd };
