// Running child processes in the foreground.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { repoRoot } from './paths.mjs';

const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs a command with inherited stdio and resolves with how it ended.
 *
 * While it runs, SIGINT / SIGTERM / SIGHUP sent to this process are passed on
 * to the child, once: Node 20 cannot exec() into the child, so this process
 * stays in between and must neither die first (orphaning the server and its
 * redis-servers) nor hammer a child that is already shutting down. A SIGTERM
 * from `docker stop`, CI or npm reaches only us, hence the forwarding.
 *
 * With ownProcessGroup, a Ctrl-C in a terminal (sent to the whole foreground
 * process group) does not also reach the child directly, so it sees exactly
 * one signal: ours.
 */
export function runForeground(command, args, { env = process.env, cwd = repoRoot, ownProcessGroup = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: 'inherit', detached: ownProcessGroup });
    let forwarded = false;
    const forward = (signal) => {
      if (forwarded) return;
      forwarded = true;
      // A closed terminal (SIGHUP) asks for the same clean stop as SIGTERM;
      // the server handles SIGINT and SIGTERM, while SIGHUP would kill it
      // before it stops its redis-servers.
      child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
    };
    for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
    const stopForwarding = () => {
      for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
    };
    child.once('error', (error) => {
      stopForwarding();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      stopForwarding();
      resolve({ code, signal, interrupted: forwarded });
    });
  });
}

/** The exit status a shell would report for that outcome (128 + n for a signal). */
export function exitStatusOf({ code, signal }) {
  if (signal) return 128 + (constants.signals[signal] ?? 0);
  return code ?? 1;
}
