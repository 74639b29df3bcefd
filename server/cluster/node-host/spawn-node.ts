/**
 * Starts one redis-server and reports on it: its PID, the moment it says it
 * is ready, its exit, and its last log lines once its pipes are read to the
 * end. It runs in the node host process (node-host-process.ts), never in the
 * web server: a spawn blocks the thread that calls it until the child has
 * exec'd, and on this kind of machine forking the web server (hundreds of MB
 * of mappings) took ~30 ms of its one event loop per node — five per lab
 * joined, one per restart.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import type { NodeExit, NodeSpawnRequest } from './protocol';

export interface NodeSpawnEvents {
  /**
   * The process exists (its PID file is written). Not called when the spawn itself failed: `exited` says why.
   * `niceError`: its priority could not be lowered (it runs at the host's), said rather than hidden.
   */
  spawned(pid: number, niceError?: string): void;
  /** Redis printed that it accepts connections (its PING is answered from now on). */
  ready(): void;
  /** It exited (or could not be spawned), with the lines it printed so far. */
  exited(exit: NodeExit): void;
  /** Its output pipes are read to the end (or SETTLE_MS passed after its exit): every line it printed. */
  settled(log: string[]): void;
}

const LOG_LINES = 30;
/** Redis 7's line once it listens ("Ready to accept connections tcp" from 7.2 on). */
const READY_LINE = /Ready to accept connections/;
/** The line that says why a node died while starting may come after its exit; it is waited for this long at most. */
const SETTLE_MS = 500;

export function spawnNode(request: NodeSpawnRequest, events: NodeSpawnEvents): void {
  const log: string[] = [];
  let readySeen = false;
  let exited = false;
  const child = spawn(request.command, request.args, {
    cwd: request.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group would survive our Ctrl-C; the server stops nodes itself on SIGINT/SIGTERM.
    detached: false,
  });
  // Redis reads its config to the end of stdin before it starts. A process that died at once closes the
  // pipe: its exit says why, the write's EPIPE need not.
  child.stdin.on('error', () => undefined);
  child.stdin.end(request.config);
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      log.push(line);
      if (log.length > LOG_LINES) log.shift();
      if (!readySeen && READY_LINE.test(line)) {
        readySeen = true;
        events.ready();
      }
    }
  };
  // Draining both pipes matters: a full pipe would block redis-server itself.
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  const settle = () => {
    const open = [child.stdout, child.stderr].filter((p) => !p.readableEnded && !p.destroyed);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      events.settled([...log]);
    };
    const timer = setTimeout(finish, SETTLE_MS);
    let left = open.length;
    if (left === 0) finish();
    for (const pipe of open) pipe.once('close', () => --left === 0 && finish());
  };
  const exit = (info: NodeExit) => {
    if (exited) return;
    exited = true;
    events.exited(info);
    settle();
  };
  child.once('error', (error) => exit({ code: null, signal: null, log: [...log, `spawn failed: ${error.message}`] }));
  child.once('exit', (code, signal) => exit({ code, signal, log: [...log] }));

  if (child.pid !== undefined) {
    const pid = child.pid;
    try {
      // For the next start's clean-up of what a killed server left (run-dir.ts).
      fs.writeFileSync(request.pidFile, String(pid), { mode: 0o600 });
    } catch (error) {
      // A node no clean-up could find must not run: it is ended, and its exit says why.
      log.push(`could not write its PID file: ${(error as Error).message}`);
      child.kill('SIGKILL');
      return;
    }
    let niceError: string | undefined;
    try {
      // Below the web server, with the rest of the learners' work (ops/priority.ts).
      os.setPriority(pid, request.nice);
    } catch (error) {
      // A process that already exited has nothing to lower (its exit is reported on its own).
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') niceError = (error as Error).message;
    }
    events.spawned(pid, niceError);
  }
}
