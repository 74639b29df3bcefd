/**
 * The lab server's side of the link process (see link-process.ts): starts it
 * below the server's priority, with a heap of its own and, when the server
 * runs as root, as an unprivileged user; hands out `RemoteLink`s that mirror
 * each link's state here (so views and conflicts answer at once) and send
 * every change there, and where each link's node is whenever that changes.
 * If the process dies, calls in flight fail, and a new one is started that
 * opens every live link again with its port, cut, delay and node.
 */
import type { ChildProcess } from 'node:child_process';
import type { LinkCutMode } from '@/lib/cluster';
import { LabOperationError } from '@/lib/result';
import { log } from '../../ops/log';
import { LEARNER_NICE } from '../../ops/priority';
import { LinkFaults, type Link, type LinkTarget } from '../link-proxy';
import type { FromLinkProcess, LinkCall, LinkState, ToLinkProcess } from './protocol';
import type { SocketBudget, SocketsRefused } from './lab-sockets';
import { refusal } from '@/lib/refusal-words';
import { entrySource } from '../../unprivileged/entry-source';
import { helperAnswered, spawnHelper, UNPRIVILEGED_USER } from '../../unprivileged/spawn-unprivileged';

const ENTRY = 'server/cluster/link-host/link-process.ts';
/** Its JS heap: delayed chunks wait here; a learner who fills it ends the runs' connections, not the server. */
export const LINK_PROCESS_HEAP_MB = 256;
/** A link process that dies within this long of starting is restarted only after it. */
const RESTART_BACKOFF_MS = 1_000;
/** How long the server's start waits for a first link process to say it runs (it takes ~50 ms). */
const READY_TIMEOUT_MS = 15_000;

/** The link process could not be started at all: the server cannot serve a run, and says so at its start. */
export class LinkProcessStartError extends Error {}

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
  /** How labs share the process's descriptors, told to every process started. */
  private budget: SocketBudget = { labs: 1, perLab: null };

  /** `refused`: a lab's connections were refused past its share of descriptors (lab-sockets.ts). */
  constructor(private readonly refused: (refused: SocketsRefused) => void = () => undefined) {}

  /** How many labs share the link process's descriptors (the server's lab cap), or the operator's share per lab. */
  configure(budget: SocketBudget): void {
    this.budget = budget;
    if (this.child) this.send({ type: 'budget', ...budget });
  }

  /** The link process's PID (starting it if need be), for tests and operators. */
  get pid(): number {
    return this.process().pid ?? 0;
  }

  /** The running link process's PID, without starting one (0: none running). */
  get runningPid(): number {
    return this.child?.pid ?? 0;
  }

  open(name: string, target: LinkTarget, lab: string): RemoteLink {
    // Started first: a new process opens every link it is told of, and this one is told below, once.
    const child = this.process();
    const link = new RemoteLink(this, this.nextId++, name, target, lab);
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

  /**
   * Starts the link process and waits until it runs: the server calls this at
   * its start, so a machine where it cannot run (a node binary the unprivileged
   * user may not execute, a broken install) stops the server with one sentence
   * instead of failing every learner's first run.
   */
  async start(): Promise<void> {
    const child = this.process();
    // A second server in one process (tests) finds the process running and already answered.
    if (this.readyChild === child) return;
    const user = process.getuid?.() === 0 ? `as uid ${UNPRIVILEGED_USER.uid}` : "as the server's user";
    await helperAnswered<FromLinkProcess>(child, (m) => m.type === 'ready', READY_TIMEOUT_MS).catch((error: Error) => {
      throw new LinkProcessStartError(`The link process (${user}, ${process.execPath}) could not start: ${error.message}.`);
    });
  }

  private process(): ChildProcess {
    if (this.child) return this.child;
    const child = spawnHelper({ source: entrySource(ENTRY), heapMb: LINK_PROCESS_HEAP_MB, nice: LEARNER_NICE });
    this.child = child;
    this.starts += 1;
    this.startedAt = performance.now();
    child.on('message', (message: FromLinkProcess) => this.receive(child, message));
    child.on('error', (error) => log.error({ err: error.message }, 'link process error'));
    child.once('exit', (code, signal) => this.lost(child, code, signal));
    // It must not keep the server alive, and it dies with it (link-process.ts exits on disconnect).
    child.unref();
    child.channel?.unref();
    child.send({ type: 'budget', ...this.budget } satisfies ToLinkProcess);
    // A new process: every link that is open again, with its port and faults.
    for (const link of this.links.values()) {
      child.send({ type: 'open', ...link.state() } satisfies ToLinkProcess);
      link.refreshTarget(true);
    }
    return child;
  }

  /** The process that has said it runs (null until the current one has). */
  private readyChild: ChildProcess | null = null;

  private receive(child: ChildProcess, message: FromLinkProcess): void {
    if (message.type === 'ready') {
      this.readyChild = child;
      return;
    }
    if (message.type === 'refused') {
      this.refused({ lab: message.lab, held: message.held, perLab: message.perLab });
      return;
    }
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
    readonly lab: string,
  ) {
    super();
  }

  state(): LinkState {
    return { id: this.id, name: this.name, lab: this.lab, port: this._port, cut: this._cut, delayMs: this._delayMs, jitterMs: this._jitterMs };
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
