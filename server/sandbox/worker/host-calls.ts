/**
 * The host calls: what the lab's guest modules ask the host synchronously, as
 * `__host.call(op, json)`. One table, op name → typed payload → handler; its
 * keys are the only op names there are (guest-names.ts hands them to the
 * guest, which never spells an op itself). Redis requests are asynchronous and
 * have their own table in requests.ts; their first one of a slice arrives here
 * as the 'request' call.
 *
 * Payloads are trusted to have the declared shape: only the lab's guest
 * modules can reach `__host` (core.js takes it off the global before learner
 * code runs), and they build the payloads from what the learner passed.
 */
import { createHash } from 'node:crypto';
import type { ConsoleEvent, HistoryInput, LockEvent } from '@/lib/history';
import type { RunSpec } from '../protocol';
import type { ClientRandom } from './client-random';
import type { LearnerConnOptions } from './connection';
import type { GuestErrorInfo } from './guest-runtime';
import type { GuestTimers } from './guest-timers';
import type { ClientLimits } from './limits';
import type { ClientRequests } from './requests';

/** What the host calls need of the run. */
export interface HostCallRun {
  readonly spec: Pick<RunSpec, 'runId' | 'clients'>;
  readonly nodes: number[];
  jobEnter(job: string): number;
  emit(event: HistoryInput): void;
}

/** What a host call may reach: the client's parts (client.ts builds this once per client). */
export interface HostCallScope {
  /** The client's number. */
  readonly client: number;
  readonly run: HostCallRun;
  readonly limits: Pick<ClientLimits, 'countConsole'>;
  readonly timers: GuestTimers;
  readonly requests: ClientRequests;
  /** The client's streams drawn from the run's seed: Math.random and crypto. */
  readonly random: ClientRandom;
  /** The program threw past every handler, or its top level failed: the client ends with this error. */
  fail(error: GuestErrorInfo): void;
}

type HostCallHandler = (s: HostCallScope, payload: never) => unknown;

export const HOST_CALLS = {
  /** Who this client is, for `lab.client` and friends. */
  info: (s) => ({ client: s.client, clients: s.run.spec.clients, nodes: s.run.nodes }),
  console: (s, p: { level: ConsoleEvent['level']; text: string }) => {
    const { level, text } = p;
    s.limits.countConsole(text);
    s.run.emit({ type: 'console', client: s.client, level, text, runId: s.run.spec.runId });
  },
  /** An uncaught exception or unhandled rejection (`kind` says which; the error says enough). */
  uncaught: (s, p: { kind: string; error: GuestErrorInfo }) => {
    const { error } = p;
    s.fail(error);
  },
  /** The program's top level finished (its promise settled). */
  mainDone: (s, p: { ok: boolean; error?: GuestErrorInfo }) => {
    if (!p.ok && p.error) s.fail(p.error);
  },
  /** [id, delayMs, repeat]: the guest numbers its timers and keeps their callbacks. */
  timerSet: (s, p: [number, number, boolean]) => {
    const [id, delayMs, repeat] = p;
    s.timers.set(id, delayMs, repeat);
  },
  timerClear: (s, id: number) => s.timers.clear(id),
  timerRef: (s, p: [number, boolean]) => {
    const [id, ref] = p;
    s.timers.ref(id, ref);
  },
  timerRefresh: (s, id: number) => s.timers.refresh(id),
  /** The next values of the guest's Math.random() (core.js buffers a batch), from the client's seeded stream. */
  mathRandom: (s, count: number) => s.random.math(count),
  uuid: (s) => s.random.uuid(),
  randomHex: (s, bytes: number) => s.random.hex(Math.max(0, Math.min(65536, Number(bytes) | 0))),
  randomInt: (s, p: [number, number]) => {
    const [min, max] = p;
    return s.random.int(min, max);
  },
  hexTo: (_s, p: { hex: string; encoding: 'base64' | 'base64url' }) => {
    const { hex, encoding } = p;
    return Buffer.from(hex, 'hex').toString(encoding);
  },
  hash: (_s, p: { algorithm: string; data: string; encoding: 'hex' | 'base64' }) => {
    const { algorithm, data, encoding } = p;
    return createHash(algorithm).update(data).digest(encoding);
  },
  /** `lab.job(name).run()` enters its critical section; answers the execution number. */
  jobEnter: (s, name: string) => {
    const job = String(name);
    const execution = s.run.jobEnter(job);
    s.run.emit({ type: 'job', phase: 'enter', client: s.client, job, execution, runId: s.run.spec.runId });
    return execution;
  },
  jobExit: (s, p: { job: string; execution: number }) => {
    const { job, execution } = p;
    s.run.emit({ type: 'job', phase: 'exit', client: s.client, job, execution, runId: s.run.spec.runId });
  },
  /** Redlock's attempts, votes and outcomes, for the checker. */
  lockEvent: (s, e: Omit<LockEvent, 'seq' | 't' | 'type' | 'client'>) => {
    s.run.emit({ ...e, type: 'lock', client: s.client, runId: s.run.spec.runId });
  },
  /** Opens a connection; answers its id. `flavor` (which client library) is for reading the guest, unused here. */
  connect: (s, p: { flavor: 'ioredis' | 'redis'; host: string; port: number; options: LearnerConnOptions }) => s.requests.open(p),
  /** [id, op, payload]: the first Redis request of a slice (requests.ts). */
  request: (s, r: unknown) => s.requests.sendFirst(r),
  connNode: (s, conn: number) => s.requests.nodeOf(conn),
  disconnect: (s, conn: number) => s.requests.disconnect(conn),
} satisfies Record<string, HostCallHandler>;

export type HostCallOp = keyof typeof HOST_CALLS;

/** Runs one host call; an answer of `undefined` reaches the guest as `undefined`. */
export function callHost(scope: HostCallScope, op: string, payload: unknown): unknown {
  if (!Object.hasOwn(HOST_CALLS, op)) throw new Error(`unknown host call ${op}`);
  const handler = HOST_CALLS[op as HostCallOp] as (s: HostCallScope, payload: unknown) => unknown;
  return handler(scope, payload);
}
