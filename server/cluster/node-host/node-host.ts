/**
 * The lab server's side of the node host (node-host-process.ts): the one
 * process that starts every redis-server. Why a process of its own: a spawn
 * blocks the thread that calls it until the child has exec'd, and forking
 * the web server — hundreds of MB of mappings — cost its one event loop
 * ~30 ms per node here (a profile with 100 labs: a quarter of the loop's
 * time went to `ChildProcess.spawn`), five per lab joined. The host is small,
 * so its forks are cheap, and while it forks the web server serves people.
 *
 * It runs as the server's user (setpriv needs the right to change to each
 * lab's uid) at the server's priority, so a node's exit reaches the lab as
 * promptly as before; the nodes it starts are lowered at once. Should it die,
 * its nodes die with it (parent-death signal, or ended here by PID): each is
 * reported down, and the next start gets a new host.
 */
import type { ChildProcess } from 'node:child_process';
import { log } from '../../ops/log';
import { entrySource } from '../../unprivileged/entry-source';
import { helperAnswered, helperExec, spawnHelper } from '../../unprivileged/spawn-unprivileged';
import type { FromNodeHost, NodeExit, NodeSpawnRequest, ToNodeHost } from './protocol';

const ENTRY = 'server/cluster/node-host/node-host-process.ts';
/** It holds a few small objects per node; its heap is never where a learner's work lands. */
export const NODE_HOST_HEAP_MB = 64;
/** How long the server's start waits for a first node host to say it runs. */
const READY_TIMEOUT_MS = 15_000;

/** The node host could not be started at all: no lab can have nodes, and the server says so at its start. */
export class NodeHostStartError extends Error {}

/** What the lab hears about one process it asked for (redis-process.ts). */
export interface NodeProcessListener {
  spawned(pid: number): void;
  listening(): void;
  exited(exit: NodeExit): void;
  settled(log: string[]): void;
}

export class NodeHost {
  private child: ChildProcess | null = null;
  private readyChild: ChildProcess | null = null;
  private readonly listeners = new Map<number, NodeProcessListener>();
  /** The PID of each process asked for that the host reported spawned and not yet exited. */
  private readonly pids = new Map<number, number>();
  private nextId = 1;
  private stopped = false;
  /** How many node hosts were started (a new one after a death counts). */
  starts = 0;

  /** The running host's PID (0: none running). */
  get runningPid(): number {
    return this.child?.pid ?? 0;
  }

  /**
   * Starts the host and waits until it runs: the server calls this at its
   * start, so a machine where it cannot run stops the server with one sentence
   * instead of failing every lab's first node.
   */
  async start(): Promise<void> {
    const child = this.process();
    if (this.readyChild === child) return;
    await helperAnswered<FromNodeHost>(child, (m) => m.type === 'ready', READY_TIMEOUT_MS).catch((error: Error) => {
      throw new NodeHostStartError(`The node host (${process.execPath}) could not start: ${error.message}.`);
    });
  }

  /** Asks for one redis-server; `listener` hears of it until it has exited and its output settled. */
  spawn(request: NodeSpawnRequest, listener: NodeProcessListener): void {
    const id = this.nextId++;
    this.listeners.set(id, listener);
    const child = this.process();
    // While it has nodes, the channel keeps this process alive, as their pipes did when it spawned them itself:
    // a caller awaiting a node's start or exit must not see its process end under it.
    if (this.listeners.size === 1) child.channel?.ref();
    child.send({ type: 'spawn', id, ...request } satisfies ToNodeHost);
  }

  private process(): ChildProcess {
    if (this.child) return this.child;
    if (this.stopped) throw new Error('the node host was stopped');
    const exec = helperExec(null);
    // At the server's own priority and as its user (see above); the parent-death signal through setpriv when it is there.
    const child = spawnHelper({ source: entrySource(ENTRY), heapMb: NODE_HOST_HEAP_MB, nice: 0, keepUser: true, ...(exec ? { exec } : {}) });
    this.child = child;
    this.starts += 1;
    child.on('message', (message: FromNodeHost) => this.receive(child, message));
    child.on('error', (error) => log.error({ event: 'node-host-error', err: error.message }, 'node host error'));
    child.once('exit', (code, signal) => this.lost(child, code, signal));
    // It must not keep the server alive; it exits when the server's channel closes.
    child.unref();
    child.channel?.unref();
    return child;
  }

  private receive(child: ChildProcess, message: FromNodeHost): void {
    if (message.type === 'ready') {
      this.readyChild = child;
      return;
    }
    const listener = this.listeners.get(message.id);
    if (!listener) return;
    switch (message.type) {
      case 'spawned':
        if (message.niceError) {
          log.warn({ event: 'node-nice', pid: message.pid, err: message.niceError }, 'could not lower a node\'s priority');
        }
        this.pids.set(message.id, message.pid);
        listener.spawned(message.pid);
        return;
      case 'listening':
        listener.listening();
        return;
      case 'exit':
        // Gone: its PID may be another process's soon, and is never signalled from here again.
        this.pids.delete(message.id);
        listener.exited({ code: message.code, signal: message.signal, log: message.log });
        return;
      case 'settled':
        this.listeners.delete(message.id);
        this.pids.delete(message.id);
        if (this.listeners.size === 0) child.channel?.unref();
        listener.settled(message.log);
        return;
    }
  }

  private lost(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = null;
    const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
    if (!this.stopped) {
      // (`exitCode`, not `code`: the log redacts any `code` field, which elsewhere is a learner's program.)
      log.error({ event: 'node-host-exit', exitCode: code, signal, nodes: this.listeners.size }, 'node host stopped; its nodes went with it');
    }
    // With setpriv its nodes died with it (parent-death signal). Without, they would run on with no one to report
    // their exit: ours, ended by PID. Either way each one not yet reported is reported now.
    for (const pid of this.pids.values()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') log.warn({ event: 'node-orphan', pid, err: (error as Error).message }, 'could not end a node of a lost node host');
      }
    }
    const line = `the node host ${how}`;
    const orphans = [...this.listeners.values()];
    this.listeners.clear();
    this.pids.clear();
    for (const listener of orphans) {
      listener.exited({ code: null, signal: 'SIGKILL', log: [line] });
      listener.settled([line]);
    }
  }

  /** Ends the host for good (a server shutting down need not: it dies with the server). */
  stop(): void {
    this.stopped = true;
    this.child?.kill('SIGKILL');
  }
}

let host: NodeHost | null = null;

/** The server's node host (one per server process, shared by its labs). */
export function nodeHost(): NodeHost {
  host ??= new NodeHost();
  return host;
}
