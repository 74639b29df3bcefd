/**
 * The server process as an operator runs it: SIGTERM stops every
 * redis-server it started; after a SIGKILL (which it cannot catch), the next
 * start finds the leftovers by their PID files and stops them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tabSoon } from '../helpers/browser-identity';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_PID_FILE } from '@/server/cluster/run-dir';
import { alive, waitFor } from './lab-fixture';

const runRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-life-'));
const children: ChildProcess[] = [];
const redisPids: number[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of redisPids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  fs.rmSync(runRoot, { recursive: true, force: true });
});

async function startServer(env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: path.resolve(__dirname, '../..'),
    env: { ...process.env, PORT: '0', LOCKLAB_WEB: '0', LOCKLAB_RUN_DIR: runRoot, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const url = await waitFor(() => /serving on (http:\/\/\S+)/.exec(output)?.[1], 'the server to listen', 20_000, 20);
  return { child, url, output: () => output };
}

async function openLab(url: string): Promise<void> {
  const socket = tabSoon(url);
  const result = await socket.emitWithAck('lab:join', {});
  socket.close();
  expect(result.ok).toBe(true);
}

function nodePids(dir: string): number[] {
  const found: number[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === NODE_PID_FILE) found.push(Number(fs.readFileSync(full, 'utf8')));
    }
  };
  walk(dir);
  return found;
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));

describe('server lifecycle', () => {
  it('SIGTERM stops every redis-server the server started and removes its run folder', async () => {
    const { child, url } = await startServer();
    await openLab(url);
    await openLab(url);
    const instance = path.join(runRoot, `instance-${child.pid}`);
    const pids = nodePids(instance);
    redisPids.push(...pids);
    // Two labs, plus the warm reserve the server keeps started.
    expect(pids.length).toBeGreaterThanOrEqual(10);
    expect(pids.every(alive)).toBe(true);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
    expect(fs.existsSync(instance)).toBe(false);
  });

  it('after a SIGKILL, the next start stops the leftovers and removes their folder', async () => {
    // Without setpriv (no parent-death signal) the nodes outlive their server, as they would on a host
    // without util-linux: the next start is what cleans up. (With setpriv they die at once: attacks/nodes.test.ts.)
    const first = await startServer({ LOCKLAB_SETPRIV: '' });
    await openLab(first.url);
    const instance = path.join(runRoot, `instance-${first.child.pid}`);
    const pids = nodePids(instance);
    redisPids.push(...pids);
    expect(pids.length).toBeGreaterThanOrEqual(5);
    first.child.kill('SIGKILL');
    await exited(first.child);
    expect(pids.every(alive)).toBe(true); // orphaned: nobody stopped them

    const second = await startServer();
    expect(second.output()).toMatch(/removed leftovers/);
    await waitFor(() => pids.every((pid) => !alive(pid)), 'the leftover redis-servers to die');
    expect(fs.existsSync(instance)).toBe(false);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  });
});
