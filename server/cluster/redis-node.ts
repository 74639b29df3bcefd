/**
 * A lab node: one redis-server at a time (a restart is a new process on the
 * same port and folder), its state as the lab sees it, and the lab's own
 * control connection to it. State changes come from the process itself (exit
 * event, the signals we send), never from polling.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { NodeRole, NodeState, Persistence } from '@/lib/cluster';
import { nodeLabel } from '@/lib/cluster';
import { LabOperationError } from '@/lib/result';
import { freePort } from './ports';
import { IDLE_HZ, redisConfig, RUN_HZ, type NodeCredentials } from './redis-config';
import type { NodeUser } from './lab-users';
import { RedisProcess, type ExitInfo } from './redis-process';
import { waitForPing } from './wait-ready';
import { nodeStarts } from './start-gate';
import { log } from '../ops/log';
import { refusal } from '@/lib/refusal-words';
import { historySaid } from '@/lib/history-said';
import type { Said, Words } from '@/lib/words';

export interface NodeStateChange {
  state: NodeState;
  /** Why, in English (the history's `reason`). */
  reason: string;
  /** The same as data, for a page in another language. */
  reasonWords: Words;
}

interface Events {
  state: [NodeStateChange];
  /** A new process is up and the control connection is ready (start or restart). */
  started: [];
  /** A run started (true) or the last one ended (false) in the node's lab: see `busy`. */
  busy: [boolean];
}

const START_TIMEOUT_MS = 10_000;
/** How long a start waits for redis's "Ready to accept connections" before it polls with PING anyway. */
const LISTENING_HINT_MS = 200;

/** "exited unexpectedly (SIGSEGV): <redis's last log line>": the log line is Redis's own, never translated. */
function unexpectedExit(info: ExitInfo): Said {
  const exited = info.signal ? historySaid('node.exitedSignal', { signal: info.signal }) : historySaid('node.exitedCode', { code: String(info.code) });
  const log = info.log.at(-1);
  return log === undefined ? exited : historySaid('node.withLog', { reason: { words: exited.words }, log });
}

export class RedisNode extends EventEmitter<Events> {
  readonly label: string;
  private proc: RedisProcess | null = null;
  private control: Redis | null = null;
  private _state: NodeState = 'down';
  private _port = 0;
  private expectedExit = false;
  /** Whether the lab asked for this process to stop; unexpected exits are reported with redis's log. */
  private stopping = false;
  /** Why the next expected exit happens, when someone other than the nemesis asked (the node guard). */
  private exitReason: Said | null = null;
  /** Whether a run goes in the lab (see RUN_HZ), and the hz the process was last given (null: not known). */
  private _busy = false;
  private appliedHz: number | null = null;

  constructor(
    readonly id: number,
    readonly dir: string,
    public persistence: Persistence,
    public role: NodeRole,
    private readonly credentials: NodeCredentials,
    /** For a replica: where to reach its master (the replication link's port). */
    public replicaOf: { host: string; port: number; node: number } | null = null,
    /** Who its process runs as: its lab's own uid under a root server (lab-users.ts), null for the server's user. */
    private readonly user: NodeUser | null = null,
  ) {
    super();
    this.label = nodeLabel(id);
    // Private: the node's data (its config, with the control password, comes on its stdin and is never written).
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
    // An unprivileged node owns its own folder (it writes its data there), and nothing above it.
    if (user) fs.chownSync(dir, user.uid, user.gid);
  }

  get state(): NodeState {
    return this._state;
  }
  get port(): number {
    return this._port;
  }
  get pid(): number | null {
    return this.proc?.alive ? this.proc.pid : null;
  }
  /** The lab's control connection; null unless the node is up. */
  get controlClient(): Redis | null {
    return this._state === 'up' ? this.control : null;
  }

  /**
   * Whether a run goes in the node's lab. Only then can learner code send the
   * node anything: the key monitor and the node guard watch it closely then,
   * and an idle node almost not at all (node-monitor.ts, node-guard.ts).
   */
  get busy(): boolean {
    return this._busy;
  }

  /** When (performance.now()) the node last answered one of the lab's own commands: it was not BUSY then. */
  lastAnsweredAt = -Infinity;

  /** The lab's monitor or guard got an answer from the node just now. */
  answered(): void {
    this.lastAnsweredAt = performance.now();
  }

  private setState(state: NodeState, reason: Said): void {
    if (state === this._state) return;
    this._state = state;
    this.emit('state', { state, reason: reason.message, reasonWords: reason.words });
  }

  /**
   * Starts a process and resolves once it answers PING. Keeps the port across restarts when it can.
   * `reason` is what the node's `up` event says ("started", or why the lab restarted it).
   */
  async start(reason: Said = historySaid('node.started')): Promise<void> {
    if (this.proc?.alive) throw new LabOperationError('conflict', refusal('node.alreadyRunning', { node: { node: this.id } }));
    this.stopping = false;
    for (let attempt = 0; ; attempt++) {
      if (this._port === 0 || attempt > 0) this._port = await freePort();
      try {
        // In turn with every other node start of the server (start-gate.ts).
        await nodeStarts.run(() => this.spawnOnce(reason));
        return;
      } catch (error) {
        const inUse = /Address already in use/i.test(String((error as Error).message));
        if (!inUse || attempt >= 3) throw error;
      }
    }
  }

  private async spawnOnce(reason: Said): Promise<void> {
    const config = redisConfig({
      port: this._port,
      persistence: this.persistence,
      credentials: this.credentials,
      replicaOf: this.replicaOf ?? undefined,
      busy: this._busy,
    });
    const proc = await RedisProcess.start(config, this.dir, this.user);
    this.proc = proc;
    this.expectedExit = false;
    this.exitReason = null;
    void proc.exited.then((info) => this.onExit(proc, info));
    try {
      // Redis says when it listens (the node host reads its output); the PING that follows is the proof, and
      // polls on its own should that line never come (another Redis's wording).
      await Promise.race([proc.listening, proc.exited, new Promise((resolve) => setTimeout(resolve, LISTENING_HINT_MS))]);
      await waitForPing({
        port: this._port,
        username: this.credentials.control.username,
        password: this.credentials.control.password,
        timeoutMs: START_TIMEOUT_MS,
        stillStarting: () => proc.alive,
      });
    } catch (error) {
      this.expectedExit = true;
      await proc.kill();
      // Read after the exit, to the end of its output: the line that says why may come after the exit itself.
      const log = (await proc.settledLog()).slice(-5).join('\n');
      throw new Error(`${this.label} failed to start: ${(error as Error).message}${log ? `\n${log}` : ''}`);
    }
    this.control = new Redis({
      host: '127.0.0.1',
      port: this._port,
      username: this.credentials.control.username,
      password: this.credentials.control.password,
      // One process, one connection: when the process dies we make a new one with the next process.
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: true,
      enableReadyCheck: false,
      commandTimeout: 1_000,
      connectionName: 'locklab-control',
    });
    this.control.on('error', () => {
      /* a dead node's connection errors are expected; state comes from the process */
    });
    // maxmemory-clients evicts the biggest clients when a learner's connections grow; never the lab's own.
    // Refused or unanswered on a node still connected, the lab's control link is evictable: not fatal, not silent.
    const control = this.control;
    control.call('CLIENT', 'NO-EVICT', 'on').catch((error: unknown) => {
      if (control.status !== 'ready') return; // the node died meanwhile: its state says so
      log.warn({ event: 'node-no-evict', node: this.id, err: (error as Error).message }, 'the lab\'s control connection to a node could not be made unevictable');
    });
    this.appliedHz = this._busy ? RUN_HZ : IDLE_HZ;
    this.setState('up', reason);
    this.emit('started');
  }

  private onExit(proc: RedisProcess, info: ExitInfo): void {
    if (proc !== this.proc) return;
    this.control?.disconnect();
    this.control = null;
    this.setState('down', this.expectedExit ? this.exitReason ?? historySaid(info.signal === 'SIGKILL' ? 'node.killed' : 'node.stopped') : unexpectedExit(info));
  }

  /**
   * SIGKILL: no shutdown, no final fsync — a crash. Resolves when the exit has been observed.
   * `reason` replaces "killed (SIGKILL)" in the node's `down` event.
   */
  async kill(reason?: Said): Promise<void> {
    const proc = this.proc;
    if (!proc?.alive) throw new LabOperationError('conflict', refusal('node.alreadyDown', { node: { node: this.id } }));
    this.expectedExit = true;
    this.exitReason = reason ?? null;
    await proc.kill();
  }

  pause(): void {
    if (this._state !== 'up' || !this.proc) throw new LabOperationError('conflict', refusal('node.notUp', { node: { node: this.id }, state: this._state }));
    this.proc.signal('SIGSTOP');
    this.setState('paused', historySaid('node.paused'));
  }

  resume(): void {
    if (this._state !== 'paused' || !this.proc) throw new LabOperationError('conflict', refusal('node.notPaused', { node: { node: this.id }, state: this._state }));
    this.proc.signal('SIGCONT');
    this.setState('up', historySaid('node.resumed'));
    // A run may have started or ended while it was stopped.
    void this.applyHz();
  }

  /**
   * A run started (true) or ended (false) in the node's lab: housekeeping at
   * RUN_HZ or IDLE_HZ, and a `busy` event when that changes (at once, before
   * the hz is set). Resolves once an up node has the hz; a node that is down
   * gets it in its next config, a paused one when it is resumed.
   */
  async setBusy(busy: boolean): Promise<void> {
    const changed = busy !== this._busy;
    this._busy = busy;
    if (changed) this.emit('busy', busy);
    await this.applyHz();
  }

  private async applyHz(): Promise<void> {
    const hz = this._busy ? RUN_HZ : IDLE_HZ;
    const control = this._state === 'up' ? this.control : null;
    if (hz === this.appliedHz || !control) return;
    this.appliedHz = null;
    try {
      await control.call('CONFIG', 'SET', 'hz', String(hz));
      if (control === this.control) this.appliedHz = hz;
    } catch (error) {
      // A connection lost meanwhile is a node killed or stopped (its state says so, and its next start's config
      // carries the rate): nothing more to report. A node still connected that refused or did not answer is
      // another matter: not fatal to anyone (expiry is only less prompt until the next try), but not silent.
      if (control.status !== 'ready') return;
      log.warn({ event: 'node-hz', node: this.id, hz, err: (error as Error).message }, 'could not set the node\'s housekeeping rate');
    }
  }

  /** Drops what the node persisted, so its next start has an empty data set. */
  wipeData(): void {
    if (this.proc?.alive) throw new LabOperationError('conflict', refusal('node.wipeNotDown', { node: { node: this.id } }));
    for (const name of ['appendonlydir', 'dump.rdb']) fs.rmSync(path.join(this.dir, name), { recursive: true, force: true });
  }

  /** Stops the process for good (lab shutdown). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.exitReason = null;
    this.control?.disconnect();
    this.control = null;
    const proc = this.proc;
    if (proc?.alive) {
      this.expectedExit = true;
      await proc.kill();
    }
  }

  get isStopping(): boolean {
    return this.stopping;
  }
}
