/**
 * The run folder holds everything the lab server writes: one folder per
 * server instance (named after its PID), one per lab, one per node. Each node
 * records the PID of its redis-server, so a server that was SIGKILLed (and
 * could not stop its nodes) is cleaned up by the next one that starts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const defaultRunRoot = (): string => process.env.LOCKLAB_RUN_DIR ?? path.join(os.tmpdir(), 'locklab-run');

const INSTANCE_PREFIX = 'instance-';
export const NODE_PID_FILE = 'redis.pid.locklab';

export function instanceDir(root: string, pid = process.pid): string {
  return path.join(root, `${INSTANCE_PREFIX}${pid}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a live process, or null (no /proc, or it is gone). */
function commandLine(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return null;
  }
}

function workingDir(pid: number): string | null {
  try {
    return fs.readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
}

function* nodePidFiles(dir: string): Generator<string> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* nodePidFiles(full);
    else if (entry.name === NODE_PID_FILE) yield full;
  }
}

export interface LeftoverReport {
  instances: string[];
  killed: number[];
}

/**
 * Stops the redis-servers of dead lab-server instances and removes their
 * folders. A PID is only killed when its command line still names that
 * instance's folder: PIDs are reused, and we end only processes we started.
 */
export function removeLeftovers(root: string): LeftoverReport {
  const report: LeftoverReport = { instances: [], killed: [] };
  let entries: string[];
  try {
    entries = fs.readdirSync(root);
  } catch {
    return report;
  }
  for (const name of entries) {
    if (!name.startsWith(INSTANCE_PREFIX)) continue;
    const ownerPid = Number(name.slice(INSTANCE_PREFIX.length));
    if (!Number.isInteger(ownerPid) || ownerPid === process.pid) continue;
    const dir = path.join(root, name);
    // A live sibling server (a zombie has an empty command line and counts as dead).
    if (isAlive(ownerPid) && (commandLine(ownerPid) ?? '').includes('node')) continue;
    report.killed.push(...killNodesUnder(dir));
    fs.rmSync(dir, { recursive: true, force: true });
    report.instances.push(dir);
  }
  return report;
}

/**
 * SIGKILLs every redis-server whose PID file lies under `dir` and which is
 * still that node (its command line names redis-server and its working
 * directory is the node folder: PIDs are reused). Returns the PIDs ended.
 */
export function killNodesUnder(dir: string): number[] {
  const killed: number[] = [];
  for (const pidFile of nodePidFiles(dir)) {
    let pid: number;
    try {
      pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    } catch {
      continue; // removed meanwhile by the node's own clean stop
    }
    if (!Number.isInteger(pid) || pid <= 0) continue;
    // redis-server rewrites its title (no config path in cmdline), but its working
    // directory is the node folder we started it in: both must match.
    const cmd = commandLine(pid);
    if (cmd && cmd.includes('redis-server') && workingDir(pid)?.startsWith(dir + path.sep)) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.push(pid);
      } catch {
        /* already gone */
      }
    }
  }
  return killed;
}
