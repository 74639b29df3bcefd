/**
 * The README's quick start from a checkout only its owner can enter (root's
 * home is 0700 on Debian, so is any `mktemp -d`): the server's unprivileged
 * processes must never need to read it. The built tree is copied (hard
 * links, so it takes seconds) into a fresh 0700 folder, the real entry point
 * is started there as this user, and one run is played to its verdict.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Socket } from 'socket.io-client';
import { openTab } from '../helpers/browser-identity';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_HOST_HEAP_MB } from '@/server/cluster/node-host/node-host';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { runToEnd, TINY_PROGRAM, value } from './attacks/attack-fixture';

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** What a checkout holds that the server does not run from. */
const NOT_COPIED = new Set(['.git', 'test-results', 'playwright-report']);

function uidOf(pid: number): number {
  return Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return children;
}

/** Resolves with the URL the server prints once it serves; rejects with its output if it exits first. */
function servingUrl(server: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /serving on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve(url);
    };
    server.stdout?.on('data', onData);
    server.stderr?.on('data', onData);
    server.once('exit', (code) => reject(new Error(`the server exited (${code}) before serving:\n${output}`)));
  });
}

describe('a checkout in a folder only its owner can read', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-private-'));
  let server: ChildProcess | null = null;
  let tab: Socket<ServerToClientEvents, ClientToServerEvents> | null = null;

  afterAll(async () => {
    tab?.close();
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('serves a run to its verdict, its link process and sandbox hosts unprivileged and reading nothing of the checkout', async () => {
    fs.chmodSync(root, 0o700);
    const checkout = path.join(root, 'lock-lab');
    fs.mkdirSync(checkout, { mode: 0o700 });
    for (const entry of fs.readdirSync(PROJECT)) {
      if (NOT_COPIED.has(entry)) continue;
      // -a keeps node_modules' symlinks as they are; -l links files instead of copying 600 MB.
      const copy = spawn('cp', ['-al', path.join(PROJECT, entry), checkout], { stdio: 'inherit' });
      const code = await new Promise((resolve) => copy.once('exit', resolve));
      expect(code, `cp -al ${entry}`).toBe(0);
    }

    server = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      cwd: checkout,
      // Everything the server writes stays inside the private folder too; pages are not needed for a run.
      env: { ...process.env, PORT: '0', LOCKLAB_WEB: '0', LOCKLAB_WARM_LABS: '0', LOCKLAB_SANDBOX_HOSTS: '2', TMPDIR: root, LOCKLAB_RUN_DIR: path.join(root, 'run') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await servingUrl(server);

    tab = await openTab(url);
    value(await tab.emitWithAck('lab:join', {}));
    const ended = await runToEnd(tab, { code: TINY_PROGRAM, clients: 3 });
    expect(ended.outcome.status).toBe('completed');
    expect(ended.outcome.clients.map((c) => c.error ?? null)).toEqual([null, null, null]);
    expect(ended.verdict.valid).toBe('held');

    // The processes that ran that program and carried every byte of it — the two sandbox hosts and the link
    // process — are the server's children, and none is the server's user when that is root. The node host, its
    // fourth, is the server's user by design (it starts each lab's nodes as the lab's uid) and reads its program
    // from stdin like the others.
    const children = childrenOf(server.pid ?? 0).filter((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith(process.execPath));
    const isNodeHost = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`--max-old-space-size=${NODE_HOST_HEAP_MB}\0`);
    const nodeHosts = children.filter(isNodeHost);
    expect(nodeHosts.length).toBe(1);
    expect(uidOf(nodeHosts[0]!)).toBe(process.getuid?.());
    expect(fs.readlinkSync(`/proc/${nodeHosts[0]!}/cwd`)).toBe('/');
    const helpers = children.filter((pid) => !isNodeHost(pid));
    expect(helpers.length).toBe(3);
    const uids = helpers.map(uidOf).sort((a, b) => a - b);
    if (process.getuid?.() === 0) {
      expect(uids).toContain(65534);
      expect(uids).not.toContain(0);
      expect(new Set(uids).size).toBe(3);
    } else expect(uids).toEqual([process.getuid?.(), process.getuid?.(), process.getuid?.()]);
    // It cannot read the checkout at all (the point of the test): as root, check the folder really is closed to it.
    if (process.getuid?.() === 0) expect(fs.statSync(root).mode & 0o077).toBe(0);
  }, 120_000);
});
