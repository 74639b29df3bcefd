/** Starts real labs in a temporary run folder and guarantees they are destroyed after each test file. */
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import type { Topology } from '@/lib/cluster';
import { DEFAULT_TOPOLOGY } from '@/lib/cluster';
import type { NodeGuardOptions } from '@/server/cluster/node-guard';
import { Lab } from '@/server/lab/lab';
import type { FaultOp, FaultReply } from '@/lib/faults/catalogue';
import type { RunningClients } from '@/server/nemesis/client-faults';
import { applyFault } from '@/server/nemesis/operations';
import { FAULTS } from '@/lib/faults/catalogue';
import { FAULT_INPUTS, type FaultInput } from '@/lib/faults/inputs';
import { parseInput } from '@/lib/validate';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-test-'));
const started: Lab[] = [];
const clients: Redis[] = [];

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await Promise.all(started.map((lab) => lab.destroy()));
  fs.rmSync(root, { recursive: true, force: true });
});

/**
 * A sandbox pool for this file's runs, a worker booted before the first test and the pool closed after the
 * last: call it at the top of a file or a describe, and read the pool inside tests.
 */
export function useSandboxPool(): () => SandboxPool {
  let pool: SandboxPool | null = null;
  beforeAll(async () => {
    pool = createSandboxPool({ warmWorkers: 1 });
    await pool.whenWarm();
  });
  afterAll(async () => {
    await pool?.close();
  });
  return () => {
    if (!pool) throw new Error('the sandbox pool starts in beforeAll');
    return pool;
  };
}

export async function startLab(topology: Partial<Topology> = {}, clientsCount = 3, nodeGuard?: NodeGuardOptions): Promise<Lab> {
  const lab = new Lab({ topology: { ...DEFAULT_TOPOLOGY, ...topology }, clients: clientsCount, dir: path.join(root, `lab-${started.length}`), nodeGuard });
  started.push(lab);
  await lab.start();
  return lab;
}

/** A fault as a browser sends it: raw input, parsed at the edge (a bad one is a rejection, as over the socket), then carried out on the lab (and its program, if given). */
export async function fault<K extends FaultOp>(lab: Lab, op: K, input: unknown, clients: RunningClients | null = null): Promise<FaultReply<K>> {
  return applyFault(op, { lab, clients }, parseInput(FAULT_INPUTS[op], input, FAULTS[op].event) as FaultInput<K>);
}

/** A learner-user connection as client `client` to `node`, through the lab's link. */
export async function learnerVia(lab: Lab, client: number, node: number, commandTimeout = 400): Promise<Redis> {
  const port = await lab.links.portFor(client, node);
  const redis = new Redis({
    host: '127.0.0.1',
    port,
    username: lab.credentials.learner.username,
    password: lab.credentials.learner.password,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: true,
    commandTimeout,
    lazyConnect: true,
  });
  redis.on('error', () => undefined);
  clients.push(redis);
  return redis;
}

/** A direct learner connection to the node's own port (no link in between). */
export function learnerDirect(lab: Lab, node: number): Redis {
  const redis = new Redis({
    host: '127.0.0.1',
    port: lab.node(node).port,
    username: lab.credentials.learner.username,
    password: lab.credentials.learner.password,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    commandTimeout: 1_000,
  });
  redis.on('error', () => undefined);
  clients.push(redis);
  return redis;
}

/** Resolves when `predicate` holds, checking on every tick of `interval` ms; fails after `timeoutMs`. */
export async function waitFor<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 5_000, interval = 5): Promise<NonNullable<T>> {
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what} (last: ${String(last)})`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/** True while the process exists and is not a zombie (an orphan's zombie waits for init to reap it). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Opens a raw TCP connection and reports how it went: 'connected', or the error code (ECONNREFUSED …). */
export function tcpConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}
