/**
 * The web server's side of one sandbox host process (host-process.ts): starts
 * it (host-users.ts: its own uid under a root server, niced, a heap of its
 * own, dying with the server), hands it QuickJS and the guest sources, and
 * mirrors each of its worker threads as a `HostWorker` the pool's runs talk
 * to. If the process dies — a crash, the kernel's OOM killer, a SIGKILL —
 * every worker in it is lost (their runs end, in words) and another process
 * is started in its place; the web server goes on.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { log } from '../../ops/log';
import { SANDBOX_HOST_NICE } from '../../ops/priority';
import { entrySource } from '../../unprivileged/entry-source';
import { helperAnswered, spawnHelper } from '../../unprivileged/spawn-unprivileged';
import { guestSources } from '../guest-sources';
import type { MainToWorker, WorkerToMain } from '../protocol';
import { workerSource } from '../worker-source';
import { hostExec, hostUid } from './host-users';
import type { FromHost, HostBoot, ToHost, WorkerEnd } from './protocol';

const ENTRY = 'server/sandbox/host/host-process.ts';
/** The host's own JS heap (its main thread relays messages; each worker has its own, WORKER_HEAP_MB). */
export const HOST_HEAP_MB = 128;
/** Descriptors a host keeps for itself: its IPC channel, its workers' own pipes and event fds. */
export const HOST_DESCRIPTOR_RESERVE = 64;
/** A host that dies within this long of starting is restarted only after it. */
const RESTART_BACKOFF_MS = 1_000;
/** How long the server's start waits for a host to say it runs (it compiles QuickJS: ~0.2–1 s). */
const READY_TIMEOUT_MS = 20_000;

/** A sandbox host could not be started at all: the server cannot run learner code, and says so at its start. */
export class SandboxHostStartError extends Error {}

/** Why a worker stopped serving its run: what its host saw, or the host itself gone. */
export type WorkerLoss = WorkerEnd | { kind: 'host-lost'; how: string };

export interface WorkerListener {
  message(m: WorkerToMain): void;
  lost(loss: WorkerLoss): void;
}

let nextWorkerId = 1;

/** A worker thread in a host, as the pool's run sees it. */
export class HostWorker {
  /** The worker's Linux thread id in its host, once it has booted. */
  tid: number | null = null;
  /** Whether it has booted (QuickJS instantiated and warmed up): a run it takes starts at once. */
  isBooted = false;
  readonly ready: Promise<void>;
  /** Set if the worker stopped before a run took it (a failed boot, its host gone): why. */
  ended: WorkerLoss | null = null;
  private listener: WorkerListener | null = null;
  private resolveReady!: () => void;

  constructor(
    readonly host: SandboxHost,
    readonly id: number,
    /** The host process it lives in (its pid does not change: a restarted host is another process, and its workers others). */
    readonly pid: number,
  ) {
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
  }

  /** Whether a run has taken it. */
  get taken(): boolean {
    return this.listener !== null;
  }

  attach(listener: WorkerListener): void {
    this.listener = listener;
  }

  post(message: MainToWorker): void {
    if (!this.ended) this.host.send({ type: 'to-worker', id: this.id, message }, this);
  }

  terminate(): void {
    if (this.ended) return;
    this.ended = { kind: 'exit' };
    this.resolveReady();
    this.host.send({ type: 'terminate', id: this.id }, this);
    this.host.forget(this);
  }

  /** From the host. */
  booted(tid: number | null): void {
    this.tid = tid;
    this.isBooted = true;
    this.resolveReady();
  }

  received(message: WorkerToMain): void {
    if (!this.ended) this.listener?.message(message);
  }

  lose(loss: WorkerLoss): void {
    if (this.ended) return;
    this.ended = loss;
    this.resolveReady();
    this.host.forget(this);
    this.listener?.lost(loss);
  }
}

/** What every host gets at boot: the wasm read and the bundle built once per server process, here on the server. */
let heavy: Pick<HostBoot, 'wasm' | 'guestSources' | 'workerSource'> | null = null;
function hostBoot(settings: HostSettings): HostBoot {
  heavy ??= {
    wasm: new Uint8Array(readFileSync(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm'))),
    guestSources: guestSources(),
    workerSource: workerSource(),
  };
  return {
    type: 'boot',
    ...heavy,
    workerHeapMb: settings.workerHeapMb,
    nice: SANDBOX_HOST_NICE,
    descriptorReserve: HOST_DESCRIPTOR_RESERVE,
    descriptorLimit: settings.descriptorLimit,
  };
}

/** What the pool's hosts run with. */
export interface HostSettings {
  workerHeapMb: number;
  /** The most descriptors each host may hold (null: its RLIMIT_NOFILE). */
  descriptorLimit: number | null;
}

export class SandboxHost {
  private child: ChildProcess | null = null;
  private readonly workers = new Map<number, HostWorker>();
  /** How many processes were started for this host (a restart after a crash counts). */
  starts = 0;
  private startedAt = -Infinity;
  private stopped = false;
  /** The process that has said it booted. */
  private bootedChild: ChildProcess | null = null;

  constructor(
    /** Which host of the server's this is (its uid under a root server follows from it). */
    readonly index: number,
    private readonly hosts: number,
    private readonly settings: HostSettings,
    /** Told when the process died (after its workers were lost), so the pool can put spares elsewhere. */
    private readonly onLost: (host: SandboxHost) => void,
  ) {}

  /** The running process's pid (0: none running). */
  get pid(): number {
    return this.child?.pid ?? 0;
  }

  /** Workers here now, running a run or warm. */
  get load(): number {
    return this.workers.size;
  }

  /** Runs going here now. */
  get running(): number {
    let n = 0;
    for (const w of this.workers.values()) if (w.taken) n += 1;
    return n;
  }

  spawnWorker(): HostWorker {
    const child = this.process();
    const worker = new HostWorker(this, nextWorkerId++, child.pid ?? 0);
    this.workers.set(worker.id, worker);
    this.send({ type: 'spawn', id: worker.id }, worker);
    return worker;
  }

  /** Sends to the process `worker` lives in (nothing, if that one is gone: its worker was lost with it). */
  send(message: ToHost, worker: HostWorker): void {
    const child = this.child;
    if (!child || child.pid !== worker.pid || !child.connected) return;
    child.send(message, undefined, undefined, () => undefined);
  }

  forget(worker: HostWorker): void {
    this.workers.delete(worker.id);
  }

  /**
   * Starts the host and waits until it has compiled QuickJS: the server calls
   * this at its start, so a machine where it cannot run (a node binary its uid
   * may not execute, no QuickJS) stops the server with one sentence.
   */
  async start(): Promise<void> {
    let child: ChildProcess;
    try {
      child = this.process();
    } catch (error) {
      // A setting that cannot work (a uid range over the labs') or a bundle that cannot be made: one sentence too.
      throw new SandboxHostStartError(`Sandbox host ${this.index + 1} could not start: ${(error as Error).message}.`);
    }
    if (this.bootedChild === child) return;
    const exec = hostExec(this.index, this.hosts);
    const user = exec?.user ? `as uid ${hostUid(this.index, this.hosts)}` : "as the server's user";
    await helperAnswered<FromHost>(child, (m) => m.type === 'booted', READY_TIMEOUT_MS).catch((error: Error) => {
      throw new SandboxHostStartError(`Sandbox host ${this.index + 1} (${user}, ${process.execPath}) could not start: ${error.message}.`);
    });
  }

  private process(): ChildProcess {
    if (this.child) return this.child;
    const exec = hostExec(this.index, this.hosts);
    const child = spawnHelper({
      source: entrySource(ENTRY),
      heapMb: HOST_HEAP_MB,
      nice: SANDBOX_HOST_NICE,
      serialization: 'advanced',
      ...(exec ? { exec } : {}),
    });
    this.child = child;
    this.starts += 1;
    this.startedAt = performance.now();
    child.on('message', (message: FromHost) => this.receive(child, message));
    child.on('error', (error) => log.error({ event: 'sandbox-host-error', host: this.index, err: error.message }, 'sandbox host error'));
    child.once('exit', (code, signal) => this.lost(child, code, signal));
    // It must not keep the server alive, and it dies with it (host-process.ts exits on disconnect; setpriv's
    // parent-death signal ends it even when the server is SIGKILLed).
    child.unref();
    child.channel?.unref();
    child.send(hostBoot(this.settings), undefined, undefined, () => undefined);
    return child;
  }

  private receive(child: ChildProcess, message: FromHost): void {
    if (this.child !== child) return;
    switch (message.type) {
      case 'booted':
        this.bootedChild = child;
        return;
      case 'ready':
        this.workers.get(message.id)?.booted(message.tid);
        return;
      case 'from-worker':
        this.workers.get(message.id)?.received(message.message);
        return;
      case 'ended':
        this.workers.get(message.id)?.lose(message.end);
        return;
    }
  }

  private lost(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = null;
    const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
    const lost = [...this.workers.values()];
    for (const worker of lost) worker.lose({ kind: 'host-lost', how });
    if (this.stopped) return;
    // (`exitCode`, not `code`: the log redacts any `code` field, which elsewhere is a learner's program.)
    log.error({ event: 'sandbox-host-exit', host: this.index, exitCode: code, signal, workers: lost.length }, 'sandbox host stopped; starting another');
    // A host that keeps dying at start is not restarted in a tight loop.
    const wait = performance.now() - this.startedAt < RESTART_BACKOFF_MS ? RESTART_BACKOFF_MS : 0;
    setTimeout(() => {
      if (this.child || this.stopped) return;
      this.process();
      this.onLost(this);
    }, wait).unref();
  }

  /** Ends the host for good, and every worker in it. */
  stop(): void {
    this.stopped = true;
    const child = this.child;
    for (const worker of [...this.workers.values()]) worker.lose({ kind: 'host-lost', how: 'stopped' });
    this.child = null;
    child?.kill('SIGKILL');
  }
}
