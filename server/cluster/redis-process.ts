/**
 * One redis-server process, as the lab sees it: ask the node host to start
 * it (node-host/: the web server's loop never forks), learn at once when it
 * exits, signal it. This is the only place that touches the OS process of a
 * node.
 */
import fs from 'node:fs';
import path from 'node:path';
import { log } from '../ops/log';
import { LEARNER_NICE } from '../ops/priority';
import type { NodeUser } from './lab-users';
import { nodeHost } from './node-host/node-host';
import type { NodeExit } from './node-host/protocol';
import { NODE_PID_FILE } from './run-dir';

export const REDIS_SERVER_BIN = process.env.LOCKLAB_REDIS_SERVER ?? 'redis-server';

/**
 * util-linux's setpriv sets the parent-death signal and then execs
 * redis-server (same PID, redis-server's own command line), so a node dies
 * within a moment of its node host dying — and the host, started the same
 * way, with its lab server being SIGKILLed or OOM-killed — instead of
 * spinning on as an orphan until the next start cleans up. The kernel sends
 * it when the *thread* that forked exits: Node's child_process forks from the
 * main thread, which lives as long as the process. LOCKLAB_SETPRIV=""
 * turns it off (tests of the fallback).
 */
const SETPRIV_BIN = process.env.LOCKLAB_SETPRIV ?? '/usr/bin/setpriv';
let setprivUsable: boolean | null = null;

export function withParentDeathSignal(): boolean {
  if (setprivUsable === null) {
    try {
      if (!SETPRIV_BIN) throw new Error('turned off by LOCKLAB_SETPRIV');
      fs.accessSync(SETPRIV_BIN, fs.constants.X_OK);
      setprivUsable = true;
    } catch (error) {
      setprivUsable = false;
      log.warn(
        { event: 'no-setpriv', setpriv: SETPRIV_BIN, error: (error as Error).message },
        'setpriv not found: redis-servers outlive a crashed lab server until its next start cleans them up',
      );
    }
  }
  return setprivUsable;
}

/**
 * The command that starts redis-server, under setpriv when it can. Its
 * config comes on stdin (`-`): it holds the lab's control password, which so
 * never touches the disk, and an unprivileged node needs no path to it
 * through the server's private folders.
 */
export function redisCommand(user: NodeUser | null): [string, string[]] {
  if (!withParentDeathSignal()) return [REDIS_SERVER_BIN, ['-']];
  const as = user ? ['--reuid', String(user.uid), '--regid', String(user.gid), '--clear-groups'] : [];
  return [SETPRIV_BIN, ['--pdeathsig', 'SIGKILL', ...as, '--', REDIS_SERVER_BIN, '-']];
}

export type ExitInfo = NodeExit;

export class RedisProcess {
  private exitInfo: ExitInfo | null = null;
  private settled: string[] | null = null;
  private readonly settledWaiters: ((log: string[]) => void)[] = [];
  private _pid = -1;
  /** Resolves when the process has exited (or could not be spawned). */
  readonly exited: Promise<ExitInfo>;
  /** Resolves when redis says it accepts connections; never, if it dies first. */
  readonly listening: Promise<void>;

  /**
   * Starts redis-server in `dir` with `config` (a redis.conf's text, handed over on its stdin), as `user` (null:
   * the server's own; see lab-users.ts). Resolves once the process exists — or has already failed: then `alive`
   * is false and `exited` says why.
   */
  static start(config: string, dir: string, user: NodeUser | null): Promise<RedisProcess> {
    return new Promise((resolve) => {
      const proc = new RedisProcess(config, dir, user, () => resolve(proc));
    });
  }

  private constructor(config: string, dir: string, user: NodeUser | null, started: () => void) {
    let exited!: (info: ExitInfo) => void;
    let listening!: () => void;
    this.exited = new Promise((resolve) => (exited = resolve));
    this.listening = new Promise((resolve) => (listening = resolve));
    const [command, args] = redisCommand(user);
    nodeHost().spawn(
      { command, args, cwd: dir, config, pidFile: path.join(dir, NODE_PID_FILE), nice: LEARNER_NICE },
      {
        spawned: (pid) => {
          this._pid = pid;
          started();
        },
        listening: () => listening(),
        exited: (info) => {
          if (this.exitInfo) return;
          this.exitInfo = info;
          exited(info);
          // A spawn that failed outright never said `spawned`.
          started();
        },
        settled: (log) => {
          this.settled = log;
          for (const waiter of this.settledWaiters.splice(0)) waiter(log);
        },
      },
    );
  }

  get pid(): number {
    return this._pid;
  }

  /**
   * The last lines redis printed, once its output pipes have been read to the end (or `withinMs` passed): a
   * process that died while starting says why ("Address already in use") in lines that may arrive after its exit.
   */
  async settledLog(withinMs = 1_000): Promise<string[]> {
    if (this.settled) return [...this.settled];
    let timer: NodeJS.Timeout | undefined;
    const log = await Promise.race([
      new Promise<string[]>((resolve) => this.settledWaiters.push(resolve)),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), withinMs))),
    ]);
    clearTimeout(timer);
    return [...(log ?? this.exitInfo?.log ?? [])];
  }

  get alive(): boolean {
    return this.exitInfo === null && this._pid > 0;
  }

  /**
   * Straight from the server, by PID (a fault's latency is the learner's to see): the process is ours and has
   * not been reported gone. Its exit, when the signal ends it, comes through the node host.
   */
  signal(signal: 'SIGKILL' | 'SIGSTOP' | 'SIGCONT' | 'SIGTERM'): boolean {
    if (!this.alive) return false;
    try {
      process.kill(this._pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  /** SIGKILL and wait for the exit to be observed (a stopped process dies on SIGKILL too). */
  async kill(): Promise<ExitInfo> {
    this.signal('SIGKILL');
    return this.exited;
  }
}
