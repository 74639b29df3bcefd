/**
 * What every attack test needs: a real lab server on a random port, sockets
 * that behave like browser tabs (optionally of one browser, through its
 * cookie), and a bystander — another learner's lab running a tiny, correct
 * program — whose run must keep finishing quickly while the attack goes on.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import type { Result } from '@/lib/result';
import type { RunEnded, RunStartInput } from '@/lib/run';
import { createLabServer, type RunningLabServer } from '@/server/app-server';
import { configFromEnv, type ServerConfig } from '@/server/config';
import { browserCookie } from '../../helpers/browser-identity';

export type Tab = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface AttackServer {
  server: RunningLabServer;
  /** A socket as a browser tab opens it: of the browser whose cookie `headers` carries (several tabs), else of a new browser. */
  tab(headers?: Record<string, string>): Promise<Tab>;
  /** A socket with exactly these headers and no identity bought for it (an attacker's: none, or a forged cookie). */
  rawTab(headers?: Record<string, string>): Promise<Tab>;
  /** A new browser: the identity a page buys with work (tests/helpers/browser-identity.ts), as a Cookie header value. */
  browser(): Promise<string>;
  close(): Promise<void>;
}

export async function startAttackServer(overrides: Partial<ServerConfig> = {}): Promise<AttackServer> {
  const runRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-attack-'));
  const server = await createLabServer(configFromEnv({ port: 0, web: false, warmLabs: 0, runRoot, ...overrides }));
  const sockets: Tab[] = [];
  const rawTab = async (headers?: Record<string, string>): Promise<Tab> => {
    const socket: Tab = io(server.url, { transports: ['websocket'], reconnection: false, extraHeaders: headers, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', (error) => reject(error));
    });
    return socket;
  };
  return {
    server,
    async tab(headers) {
      return rawTab({ ...headers, cookie: headers?.cookie ?? (await browserCookie(server.url)) });
    },
    rawTab,
    browser() {
      return browserCookie(server.url);
    },
    async close() {
      for (const s of sockets) s.close();
      await server.close();
      fs.rmSync(runRoot, { recursive: true, force: true });
    },
  };
}

export function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** Starts a run on the tab's lab and resolves with how it ended; rejects at once if the start is refused. */
export async function runToEnd(tab: Tab, input: RunStartInput): Promise<RunEnded> {
  let runId: string | null = null;
  const early: (RunEnded & { labId: string })[] = [];
  let deliver: ((e: RunEnded) => void) | null = null;
  const onEnded = (e: RunEnded & { labId: string }) => {
    if (runId === null) early.push(e);
    else if (e.runId === runId) deliver?.(e);
  };
  tab.on('run:ended', onEnded);
  try {
    runId = value(await tab.emitWithAck('run:start', input)).runId;
    const already = early.find((e) => e.runId === runId);
    if (already) return already;
    return await new Promise<RunEnded>((resolve) => (deliver = resolve));
  } finally {
    tab.off('run:ended', onEnded);
  }
}

/** A correct, tiny program: three clients take a lock in turn for a 20 ms job. */
export const TINY_PROGRAM = [
  "import Redis from 'ioredis';",
  "import lab from 'lab';",
  "const redis = new Redis({ host: 'redis-1.internal' });",
  "const token = 'client-' + lab.client;",
  "while ((await redis.set('lock:tiny', token, 'PX', 5000, 'NX')) !== 'OK') await lab.sleep(5);",
  "await lab.job('tiny').run(20);",
  "await redis.eval(\"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end\", 1, 'lock:tiny', token);",
  'redis.disconnect();',
].join('\n');

/**
 * The bystander: its own tab and lab; `run()` runs the tiny program and reports its wall time, how long
 * it waited to start (run:start to run:started: its turn in the run budget, and its worker) and its verdict.
 * `{ warm: true }` starts it once the pool has a worker booted, as a learner's next run finds one on a server
 * given a moment: the time is then the run's, not a boot's on two cores other engineers share.
 */
export async function bystander(attack: AttackServer): Promise<{ run(options?: { warm?: boolean }): Promise<{ ms: number; startedAfterMs: number; ended: RunEnded }> }> {
  const tab = await attack.tab();
  value(await tab.emitWithAck('lab:join', {}));
  return {
    async run(options = {}) {
      if (options.warm) await attack.server.sandbox?.whenWarm();
      const began = performance.now();
      let startedAt = Number.NaN;
      tab.once('run:started', () => (startedAt = performance.now()));
      const ended = await runToEnd(tab, { code: TINY_PROGRAM, clients: 3 });
      return { ms: performance.now() - began, startedAfterMs: startedAt - began, ended };
    },
  };
}
