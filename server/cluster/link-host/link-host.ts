/**
 * The lab server's side of the link process (see link-process.ts): starts it
 * below the server's priority, with a heap of its own and, when the server
 * runs as root, as an unprivileged user; hands out `RemoteLink`s that mirror
 * each link's state here (so views and conflicts answer at once) and send
 * every change there, and where each link's node is whenever that changes.
 * If the process dies, calls in flight fail, and a new one is started that
 * opens every live link again with its port, cut, delay and node.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { LinkCutMode } from '@/lib/cluster';
import { LabOperationError } from '@/lib/result';
import { log } from '../../ops/log';
import { LinkFaults, type Link, type LinkTarget } from '../link-proxy';
import type { FromLinkProcess, LinkCall, LinkState, ToLinkProcess } from './protocol';
import { refusal } from '@/lib/refusal-words';

const ENTRY = fileURLToPath(new URL('./link-process.ts', import.meta.url));
/**
 * With the redis-servers (5): a link and its node carry the same bytes, and a link below its node only
 * adds queueing on a busy machine (at 10, a correct Redlock's retries slowed past the liveness bound
 * under a 20-lab soak). Below the web server (0); above the learners' sandbox threads (15).
 */
export const LINK_PROCESS_NICE = 5;
/** Its JS heap: delayed chunks wait here; a learner who fills it ends the runs' connections, not the server. */
export const LINK_PROCESS_HEAP_MB = 256;
/** A link process that dies within this long of starting is restarted only after it. */
const RESTART_BACKOFF_MS = 1_000;
/** Who the link process runs as when the server is root: it needs no privilege at all. */
const UNPRIVILEGED = { uid: 65534, gid: 65534 };

interface Pending {
  resolve: (port: number) => void;
  reject: (error: Error) => void;
}

export class LinkHost {
  private child: ChildProcess | null = null;
  private readonly links = new Map<number, RemoteLink>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private nextReq = 1;
  /** How many link processes were started (a restart after a crash counts). */
  starts = 0;
  private startedAt = -Infinity;
  private stopped = false;

  /** The link process's PID (starting it if need be), for tests and operators. */
  get pid(): number {
    return this.process().pid ?? 0;
  }

  /** The running link process's PID, without starting one (0: none running). */
  get runningPid(): number {
    return this.child?.pid ?? 0;
  }

  open(name: string, target: LinkTarget): RemoteLink {
    // Started first: a new process opens every link it is told of, and this one is told below, once.
    const child = this.process();
    const link = new RemoteLink(this, this.nextId++, name, target);
    this.links.set(link.id, link);
    child.send({ type: 'open', ...link.state() } satisfies ToLinkProcess);
    link.refreshTarget(true);
    return link;
  }

  call(link: RemoteLink, call: LinkCall): Promise<number> {
    const req = this.nextReq++;
    return new Promise<number>((resolve, reject) => {
      this.pending.set(req, { resolve, reject });
      this.send({ type: 'call', req, id: link.id, call });
    });
  }

  send(message: ToLinkProcess): void {
    this.process().send(message);
  }

  forget(link: RemoteLink): void {
    this.links.delete(link.id);
  }

  private process(): ChildProcess {
    if (this.child) return this.child;
    const root = process.getuid?.() === 0;
    const child = fork(ENTRY, [], {
      execArgv: ['--import', 'tsx', `--max-old-space-size=${LINK_PROCESS_HEAP_MB}`],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'json',
      // The server's own temp folder may be private to it; the unprivileged process gets the system's.
      ...(root ? { ...UNPRIVILEGED, env: { ...process.env, TMPDIR: '/tmp' } } : {}),
    });
    this.child = child;
    this.starts += 1;
    this.startedAt = performance.now();
    try {
      if (child.pid) os.setPriority(child.pid, LINK_PROCESS_NICE);
    } catch {
      /* not permitted here: it still works, only at the server's priority */
    }
    child.on('message', (message: FromLinkProcess) => this.receive(message));
    child.on('error', (error) => log.error({ err: error.message }, 'link process error'));
    child.once('exit', (code, signal) => this.lost(child, code, signal));
    // It must not keep the server alive, and it dies with it (link-process.ts exits on disconnect).
    child.unref();
    child.channel?.unref();
    // A new process: every link that is open again, with its port and faults.
    for (const link of this.links.values()) {
      child.send({ type: 'open', ...link.state() } satisfies ToLinkProcess);
      link.refreshTarget(true);
    }
    return child;
  }

  private receive(message: FromLinkProcess): void {
    const pending = this.pending.get(message.req);
    if (!pending) return;
    this.pending.delete(message.req);
    if (message.ok) pending.resolve(message.port);
    else pending.reject(new LabOperationError(message.code, message.message));
  }

  private lost(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = null;
    const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
    for (const [req, pending] of this.pending) {
      this.pending.delete(req);
      pending.reject(new LabOperationError('internal', refusal('link.processStopped', { how })));
    }
    if (this.stopped) return;
    // (`exitCode`, not `code`: the log redacts any `code` field, which elsewhere is a learner's program.)
    log.error({ event: 'link-process-exit', exitCode: code, signal, links: this.links.size }, 'link process stopped; starting another');
    if (this.links.size === 0) return;
    // Clients keep reconnecting to their link ports: put the links back at once — but a process that
    // keeps dying at start is not restarted in a tight loop.
    const wait = performance.now() - this.startedAt < RESTART_BACKOFF_MS ? RESTART_BACKOFF_MS : 0;
    setTimeout(() => {
      if (!this.child && !this.stopped && this.links.size > 0) this.process();
    }, wait).unref();
  }

  /** Ends the link process for good (a server shutting down need not: it dies with the server). */
  stop(): void {
    this.stopped = true;
    this.child?.kill('SIGKILL');
  }
}

/** A link in the link process, as the lab sees it: its state mirrored here, its changes sent there. */
export class RemoteLink extends LinkFaults implements Link {
  private closed = false;
  /** The node's port as last told to the link process (undefined: not told yet). */
  private told: number | null | undefined = undefined;

  constructor(
    private readonly host: LinkHost,
    readonly id: number,
    readonly name: string,
    readonly target: LinkTarget,
  ) {
    super();
  }

  state(): LinkState {
    return { id: this.id, name: this.name, port: this._port, cut: this._cut, delayMs: this._delayMs, jitterMs: this._jitterMs };
  }

  async ensureListening(): Promise<number> {
    if (this._port !== 0) return this._port;
    this._port = await this.call({ op: 'listen' });
    return this._port;
  }

  async start(): Promise<number> {
    this._port = await this.call({ op: 'start' });
    return this._port;
  }

  async cutLink(mode: LinkCutMode): Promise<void> {
    // The same refusal the proxy would give, without a round trip.
    if (this._cut) throw new LabOperationError('conflict', `${this.name} is already cut (${this._cut})`);
    await this.call({ op: 'cut', mode });
    this._cut = mode;
  }

  async heal(): Promise<void> {
    if (!this._cut) throw new LabOperationError('conflict', `${this.name} is not cut`);
    await this.call({ op: 'heal' });
    this._cut = null;
  }

  setDelay(delayMs: number, jitterMs = 0): void {
    this._delayMs = delayMs;
    this._jitterMs = jitterMs;
    if (!this.closed) this.host.send({ type: 'delay', id: this.id, delayMs, jitterMs });
  }

  resetConnections(): void {
    if (!this.closed) this.host.send({ type: 'reset', id: this.id });
  }

  /** Tells the link process where the node is, if that changed (or always: a new link, a new link process). */
  refreshTarget(always = false): void {
    if (this.closed) return;
    const port = this.target.port();
    if (!always && port === this.told) return;
    this.told = port;
    this.host.send({ type: 'target-is', id: this.id, port });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.host.forget(this);
    try {
      await this.call({ op: 'close' });
    } catch {
      // The link process died meanwhile: its ports went with it.
    }
  }

  private call(call: LinkCall): Promise<number> {
    if (this.closed && call.op !== 'close') return Promise.reject(new LabOperationError('not-found', `${this.name} is closed`));
    return this.host.call(this, call);
  }
}
