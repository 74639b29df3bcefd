/**
 * A lab server as `npm start` runs it — its own process, its own event loop —
 * for the benchmarks that measure it from outside (the soak, the capacity
 * table's busy phase): clients in the benchmark's process must not share the
 * loop they measure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A measuring loop sends kill and restart back to back, faster than the per-tab limits a person never reaches:
 * those limits lifted, for the benchmarks that time faults.
 */
export const FAULTS_AS_FAST_AS_MEASURED: Record<string, string> = {
  LOCKLAB_LAB_ACTION_BURST: '10000',
  LOCKLAB_LAB_ACTION_RATE: '10000',
  LOCKLAB_PER_LAB_BURST: '10000',
  LOCKLAB_PER_LAB_RATE: '10000',
};

export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Where its labs live: every redis-server it starts runs from inside this folder. */
  runRoot: string;
  /** SIGTERM, then SIGKILL if it lingers; any redis-server left in its folder is killed by PID; the folder is removed. */
  stop(): Promise<{ leftoverNodes: number }>;
}

/** PIDs of redis-servers running from inside `dir` (by their working directory). */
export function redisServersUnder(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').startsWith('redis-server')) continue;
      if (fs.readlinkSync(`/proc/${entry}/cwd`).startsWith(dir + path.sep)) pids.push(Number(entry));
    } catch {
      /* gone, or not ours */
    }
  }
  return pids;
}

export async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const runRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-bench-server-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: projectDir,
    // No store (LOCKLAB_STORE=0): a benchmark measures the labs, and the user's data folder serves one server at a time.
    env: { ...process.env, PORT: '0', LOCKLAB_WEB: '0', LOCKLAB_RUN_DIR: runRoot, NODE_ENV: 'production', LOCKLAB_WARM_LABS: '0', LOCKLAB_LOG_LEVEL: 'warn', LOCKLAB_STORE: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
  child.stderr!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async () => {
    if (!exited()) child.kill('SIGTERM');
    if (!(await until(exited, 15_000))) child.kill('SIGKILL');
    await until(() => redisServersUnder(runRoot).length === 0, 5_000);
    const leftoverNodes = redisServersUnder(runRoot).length;
    // Ours to end: only redis-servers started inside this server's own folder.
    for (const pid of redisServersUnder(runRoot)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    fs.rmSync(runRoot, { recursive: true, force: true });
    return { leftoverNodes };
  };
  if (!(await until(() => /serving on http:\/\/\S+/.test(output) || exited(), 30_000)) || exited()) {
    await stop();
    throw new Error(`the lab server did not start:\n${output}`);
  }
  const url = /serving on (http:\/\/[^\s"]+)/.exec(output)![1]!;
  return { url, pid: child.pid!, child, runRoot, stop };
}

/** A process's resident memory (MB) and open file descriptors, or null once it is gone. */
export function processFootprint(pid: number): { rssMb: number; fds: number } | null {
  try {
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return { rssMb: rssKb / 1024, fds: fs.readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return null;
  }
}
