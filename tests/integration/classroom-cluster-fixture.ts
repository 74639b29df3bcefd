/**
 * Several lab servers sharing one coordination Redis, as real processes:
 * a `redis-server` on a free loopback port (no persistence), and servers
 * spawned as `node --import tsx server/index.ts` with PORT=0. Free of vitest
 * so the classroom benchmark uses it too. Everything started here is stopped
 * by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves with the first match of `pattern` in the process's stdout; rejects if it exits first or after `timeoutMs`. */
function awaitOutput(child: ChildProcess, pattern: RegExp, timeoutMs: number, seen: { text: string }): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = seen.text.match(pattern);
      if (match) {
        cleanup();
        resolve(match);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`process exited (${code}) before printing ${pattern}:\n${seen.text}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${seen.text}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', check);
    child.once('exit', onExit);
    check();
  });
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      if (child.pid) process.kill(child.pid, 'SIGKILL');
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.pid) process.kill(child.pid, signal);
  });
}

export interface CoordinationRedis {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startCoordinationRedis(): Promise<CoordinationRedis> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-coord-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seen = { text: '' };
  child.stdout?.on('data', (chunk: Buffer) => (seen.text += chunk.toString()));
  await awaitOutput(child, /Ready to accept connections/, 10_000, seen);
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      await stopChild(child, 'SIGTERM', 5_000);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface SpawnedServer {
  url: string;
  pid: number;
  /** Everything the server printed so far. */
  output(): string;
  /** SIGTERM: the server stops its labs' redis-servers and removes its run folder. */
  stop(): Promise<void>;
}

export async function spawnLabServer(env: Record<string, string>): Promise<SpawnedServer> {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-srv-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOCKLAB_WEB: '0', LOCKLAB_WARM_LABS: '0', LOCKLAB_RUN_DIR: runDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seen = { text: '' };
  child.stdout?.on('data', (chunk: Buffer) => (seen.text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (seen.text += chunk.toString()));
  const [, url] = await awaitOutput(child, /serving on (http:\/\/[\d.]+:\d+)/, 30_000, seen);
  return {
    url: url!,
    pid: child.pid!,
    output: () => seen.text,
    async stop() {
      await stopChild(child, 'SIGTERM', 15_000);
      fs.rmSync(runDir, { recursive: true, force: true });
    },
  };
}
