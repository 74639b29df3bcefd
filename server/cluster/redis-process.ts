/**
 * One redis-server process: spawn it, know at once when it exits, signal it.
 * This is the only place that touches the OS process of a node.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { log } from '../ops/log';
import { LEARNER_NICE } from '../ops/priority';
import type { NodeUser } from './lab-users';
import { NODE_PID_FILE } from './run-dir';

export const REDIS_SERVER_BIN = process.env.LOCKLAB_REDIS_SERVER ?? 'redis-server';

/**
 * util-linux's setpriv sets the parent-death signal and then execs
 * redis-server (same PID, redis-server's own command line), so a node dies
 * within a moment of its lab server being SIGKILLed or OOM-killed instead of
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

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last lines redis printed, to explain an unexpected exit. */
  log: string[];
}

interface Events {
  exit: [ExitInfo];
}

const LOG_LINES = 30;

/** Below the web server, with the rest of the learners' work (ops/priority.ts). */
function lowerPriority(pid: number): void {
  try {
    os.setPriority(pid, LEARNER_NICE);
  } catch (error) {
    // A process that already exited has nothing to lower (its exit is reported on its own); anything else is
    // a node left at the server's priority, which a busy class would feel: said, not hidden.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return;
    log.warn({ event: 'node-nice', pid, err: (error as Error).message }, 'could not lower a node\'s priority');
  }
}

export class RedisProcess extends EventEmitter<Events> {
  private readonly child: ChildProcess;
  private readonly log: string[] = [];
  private exitInfo: ExitInfo | null = null;
  readonly exited: Promise<ExitInfo>;
  readonly pid: number;

  /** Starts redis-server in `dir` with `config` (a redis.conf's text, handed over on its stdin), as `user` (null: the server's own; see lab-users.ts). */
  constructor(
    config: string,
    readonly dir: string,
    user: NodeUser | null,
  ) {
    super();
    const [command, args] = redisCommand(user);
    this.child = spawn(command, args, {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group would survive our Ctrl-C; we stop nodes ourselves on SIGINT/SIGTERM.
      detached: false,
    });
    // Redis reads its config to the end of stdin before it starts. A process that died at once closes the
    // pipe: its exit says why, the write's EPIPE need not.
    this.child.stdin?.on('error', () => undefined);
    this.child.stdin?.end(config);
    if (this.child.pid === undefined) {
      // spawn reports ENOENT asynchronously; surface it as an exit.
      this.pid = -1;
    } else {
      this.pid = this.child.pid;
      fs.writeFileSync(path.join(dir, NODE_PID_FILE), String(this.pid), { mode: 0o600 });
      lowerPriority(this.pid);
    }
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        this.log.push(line);
        if (this.log.length > LOG_LINES) this.log.shift();
      }
    };
    // Draining both pipes matters: a full pipe would block redis-server itself.
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => {
      const finish = (info: ExitInfo) => {
        if (this.exitInfo) return;
        this.exitInfo = info;
        resolve(info);
        this.emit('exit', info);
      };
      this.child.once('error', (error) =>
        finish({ code: null, signal: null, log: [...this.log, `spawn failed: ${error.message}`] }),
      );
      this.child.once('exit', (code, signal) => finish({ code, signal, log: [...this.log] }));
    });
  }

  /**
   * The last lines redis printed, once its output pipes have been read to the end (or `withinMs` passed): a
   * process that died while starting says why ("Address already in use") in lines that may arrive after its exit.
   */
  async settledLog(withinMs = 500): Promise<string[]> {
    const pipes = [this.child.stdout, this.child.stderr].filter((p) => p !== null && !p.readableEnded && !p.destroyed);
    if (pipes.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(pipes.map((p) => new Promise((resolve) => p!.once('close', resolve)))),
        new Promise((resolve) => (timer = setTimeout(resolve, withinMs))),
      ]);
      clearTimeout(timer);
    }
    return [...this.log];
  }

  get alive(): boolean {
    return this.exitInfo === null && this.pid > 0;
  }

  recentLog(): string[] {
    return [...this.log];
  }

  signal(signal: 'SIGKILL' | 'SIGSTOP' | 'SIGCONT' | 'SIGTERM'): boolean {
    if (!this.alive) return false;
    try {
      return this.child.kill(signal);
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
