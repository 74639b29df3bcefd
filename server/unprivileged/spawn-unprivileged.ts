/**
 * Starts one of the server's helper processes (the link process, the sandbox hosts, the node host) from a
 * bundled source, as an unprivileged user when the server is root (the node host excepted, see keepUser), below the
 * server's priority and with a heap of its own. What it needs from the machine
 * is the node binary and nothing else: its program arrives on standard input
 * (see entry-source.ts), its working folder is `/`, and its environment is a
 * short list — not the server's, whose NODE_OPTIONS may name a loader inside
 * the checkout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/** Who a helper runs as when the server is root: it needs no privilege at all. */
export const UNPRIVILEGED_USER = { uid: 65534, gid: 65534 } as const;

const SETPRIV_BIN = process.env.LOCKLAB_SETPRIV ?? '/usr/bin/setpriv';
const NICE_BIN = '/usr/bin/nice';

const executable = (file: string): boolean => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** A helper started through nice and setpriv (`HelperProcessOptions.exec`) as `user`, or null where either is missing. */
export function helperExec(user: { uid: number; gid: number } | null): NonNullable<HelperProcessOptions['exec']> | null {
  if (!SETPRIV_BIN || !executable(SETPRIV_BIN) || !executable(NICE_BIN)) return null;
  return { setpriv: SETPRIV_BIN, nice: NICE_BIN, user };
}

export interface HelperProcessOptions {
  /** The whole program, as `entrySource` makes it. */
  source: string;
  heapMb: number;
  nice: number;
  /**
   * Start it through `nice` and util-linux's `setpriv`: at its nice value from its first instruction (every
   * thread it starts inherits it; a nice set from outside after the spawn reaches only the main thread, and
   * only once it runs), with a parent-death signal, and — when the server is root — as this user. Without
   * it: the spawn's own uid change, and the nice set from outside (the link process).
   */
  exec?: { setpriv: string; nice: string; user: { uid: number; gid: number } | null };
  /**
   * Run as the server's own user even when that is root: only the node host, whose one job is to start each
   * lab's redis-servers as that lab's uid (setpriv needs the right to change to it). Its program still comes
   * on stdin and its folder is still `/`.
   */
  keepUser?: boolean;
  /** The IPC channel's serialization: 'json' (default) or 'advanced' (structured clone: typed arrays, no JSON round trip). */
  serialization?: 'json' | 'advanced';
}

/** The environment a helper gets: enough for Node and for a log line's locale, nothing that points into the checkout. */
function helperEnv(): NodeJS.ProcessEnv {
  // An undefined value is left out of the child's environment by spawn.
  const { NODE_ENV, LANG, LC_ALL, TZ } = process.env;
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', TMPDIR: '/tmp', NODE_ENV, LANG, LC_ALL, TZ };
}

/**
 * Forks the helper with an IPC channel (JSON messages). Its standard input
 * carries its program and is closed once written; stdout and stderr are the
 * server's. The caller listens for 'exit' to learn that it died, and why.
 */
export function spawnHelper({ source, heapMb, nice, exec, keepUser = false, serialization = 'json' }: HelperProcessOptions): ChildProcess {
  const root = process.getuid?.() === 0;
  const node = [process.execPath, `--max-old-space-size=${heapMb}`, '-'];
  const [command, ...args] = exec
    ? [
        exec.nice,
        '-n',
        String(nice),
        exec.setpriv,
        '--pdeathsig',
        'SIGKILL',
        ...(exec.user ? ['--reuid', String(exec.user.uid), '--regid', String(exec.user.gid), '--clear-groups'] : []),
        '--',
        ...node,
      ]
    : node;
  const child = spawn(command!, args, {
    stdio: ['pipe', 'inherit', 'inherit', 'ipc'],
    serialization,
    cwd: '/',
    env: helperEnv(),
    ...(!exec && root && !keepUser ? UNPRIVILEGED_USER : {}),
  });
  // A child that dies before reading its program makes this write fail with EPIPE; its 'exit' says why, so the
  // caller learns of it there. Any other error on the pipe is unexpected and goes to the same place: the child is ended.
  child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') child.kill('SIGKILL');
  });
  child.stdin?.end(source);
  if (child.pid && !exec) {
    try {
      os.setPriority(child.pid, nice);
    } catch (error) {
      // Raising a nice value is always allowed on Linux; failing means the child is already gone (its exit reports it).
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
  return child;
}

/**
 * Waits for a helper's first sign of life: the message `answered` accepts. Rejects with why it never came —
 * the process exited or was killed, could not be spawned, or said nothing for `timeoutMs` — in words the
 * caller puts after "could not start: ", so the server stops at its start with one sentence.
 */
export function helperAnswered<M>(child: ChildProcess, answered: (message: M) => boolean, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const fail = (why: string) => {
      cleanup();
      reject(new Error(why));
    };
    const onMessage = (message: M) => {
      if (!answered(message)) return;
      cleanup();
      resolve();
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(signal ? `it was killed by ${signal}` : `it exited with code ${code} (its error is printed above)`);
    const onError = (error: Error) => fail(error.message);
    const timer = setTimeout(() => fail(`it did not answer within ${timeoutMs / 1000} s`), timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}
