/**
 * Type definitions of the modules learner code can import inside the lab's
 * sandbox (server/sandbox/README.md), handed to Monaco's TypeScript worker
 * so autocomplete and red squiggles match what really runs. Kept as strings:
 * they are data for the editor, not types of this app.
 */

const LAB = `declare module 'lab' {
  export interface Job {
    readonly name: string;
    /** The protected critical section: the checker counts who is inside. Works for \`ms\`; resolves with the execution number. */
    run(ms?: number): Promise<number>;
    /** Runs \`work\` inside the section (e.g. the protected write) and resolves with its result. */
    run<T>(work: (execution: number) => T | Promise<T>): Promise<T>;
    /** Works for \`ms\`, then runs \`work\`, still inside the section. */
    run<T>(ms: number, work: (execution: number) => T | Promise<T>): Promise<T>;
  }
  export interface FencedStore {
    /**
     * Writes through the fenced store, a remote service: resolves a few ms later (its latency, each way) with the
     * token, or null for a write without one. A token not greater than the highest accepted rejects with an Error
     * whose code is 'EFENCED' ("fenced: token 32 <= 33"). Without a token the write is unfenced.
     */
    write(key: string, value: string | number, token?: number | null): Promise<number | null>;
    /** What the store held when the request arrived (null: nothing), a few ms later. */
    read(key: string): Promise<string | null>;
  }
  export interface Lab {
    /** This client's number, from 1. */
    readonly client: number;
    readonly clientId: number;
    /** How many clients run this program. */
    readonly clients: number;
    readonly clientCount: number;
    /** The lab's node numbers. */
    readonly nodes: number[];
    sleep(ms: number): Promise<void>;
    job(name?: string): Job;
    readonly store: FencedStore;
    /** Writes a line to this client's console (shown in the Console panel). */
    log(...values: unknown[]): void;
  }
  const lab: Lab;
  export default lab;
  export const client: number;
  export const clients: number;
  export const nodes: number[];
  export function sleep(ms: number): Promise<void>;
  export function job(name?: string): Job;
  export const store: FencedStore;
  export function log(...values: unknown[]): void;
}
`;

const IOREDIS = `declare module 'ioredis' {
  type Key = string;
  type Value = string | number;
  type Callback<T> = (err: Error | null, result?: T) => void;
  export interface RedisOptions {
    host?: string;
    port?: number;
    username?: string;
    password?: string;
    db?: number;
    connectTimeout?: number;
    commandTimeout?: number;
    maxRetriesPerRequest?: number | null;
    lazyConnect?: boolean;
    enableOfflineQueue?: boolean;
    retryStrategy?: (times: number) => number | null | void;
  }
  class Redis {
    constructor();
    constructor(port: number, host?: string, options?: RedisOptions);
    constructor(url: string, options?: RedisOptions);
    constructor(options: RedisOptions);
    readonly status: string;
    on(event: 'error' | 'ready' | 'connect' | 'close' | 'end' | 'reconnecting', listener: (...args: any[]) => void): this;
    once(event: string, listener: (...args: any[]) => void): this;
    connect(): Promise<void>;
    quit(): Promise<'OK'>;
    disconnect(): void;
    get(key: Key): Promise<string | null>;
    set(key: Key, value: Value): Promise<'OK'>;
    set(key: Key, value: Value, nx: 'NX' | 'XX'): Promise<'OK' | null>;
    set(key: Key, value: Value, px: 'PX' | 'EX', ttl: number): Promise<'OK'>;
    set(key: Key, value: Value, px: 'PX' | 'EX', ttl: number, nx: 'NX' | 'XX'): Promise<'OK' | null>;
    set(key: Key, value: Value, nx: 'NX' | 'XX', px: 'PX' | 'EX', ttl: number): Promise<'OK' | null>;
    setnx(key: Key, value: Value): Promise<number>;
    getset(key: Key, value: Value): Promise<string | null>;
    del(...keys: Key[]): Promise<number>;
    unlink(...keys: Key[]): Promise<number>;
    exists(...keys: Key[]): Promise<number>;
    incr(key: Key): Promise<number>;
    incrby(key: Key, by: number): Promise<number>;
    decr(key: Key): Promise<number>;
    expire(key: Key, seconds: number): Promise<number>;
    pexpire(key: Key, ms: number): Promise<number>;
    ttl(key: Key): Promise<number>;
    pttl(key: Key): Promise<number>;
    persist(key: Key): Promise<number>;
    hset(key: Key, ...fieldsAndValues: Value[]): Promise<number>;
    hget(key: Key, field: string): Promise<string | null>;
    hgetall(key: Key): Promise<Record<string, string>>;
    lpush(key: Key, ...values: Value[]): Promise<number>;
    rpush(key: Key, ...values: Value[]): Promise<number>;
    lrange(key: Key, start: number, stop: number): Promise<string[]>;
    time(): Promise<[string, string]>;
    ping(): Promise<string>;
    eval(script: string, numKeys: number, ...keysAndArgs: Value[]): Promise<unknown>;
    evalsha(sha: string, numKeys: number, ...keysAndArgs: Value[]): Promise<unknown>;
    script(subcommand: 'LOAD', script: string): Promise<string>;
    script(subcommand: string, ...args: Value[]): Promise<unknown>;
    call(command: string, ...args: Value[]): Promise<unknown>;
    /** Adds a method running a Lua script: redis.defineCommand('release', { numberOfKeys: 1, lua }) → redis.release(key, token). */
    defineCommand(name: string, definition: { numberOfKeys?: number; lua: string }): void;
    watch(...keys: Key[]): Promise<'OK'>;
    unwatch(): Promise<'OK'>;
    /** A transaction: queue commands, then exec() runs them together in MULTI/EXEC. */
    multi(commands?: Array<[string, ...Value[]]>): ChainableCommander;
    /** Commands sent together in one write, without MULTI: each succeeds or fails on its own. */
    pipeline(commands?: Array<[string, ...Value[]]>): ChainableCommander;
    [command: string]: any;
  }
  export interface ChainableCommander {
    readonly length: number;
    /** [[error, result], ...] in queue order; null when a WATCHed key changed and nothing ran. */
    exec(): Promise<Array<[Error | null, unknown]> | null>;
    call(command: string, ...args: Value[]): this;
    get(key: Key): this;
    set(key: Key, value: Value, ...options: Value[]): this;
    del(...keys: Key[]): this;
    incr(key: Key): this;
    pexpire(key: Key, ms: number): this;
    eval(script: string, numKeys: number, ...keysAndArgs: Value[]): this;
    [command: string]: any;
  }
  export { Redis };
  export default Redis;
}
`;

const NODE_REDIS = `declare module 'redis' {
  export interface RedisClientOptions {
    url?: string;
    username?: string;
    password?: string;
    socket?: { host?: string; port?: number; connectTimeout?: number; reconnectStrategy?: false | ((retries: number) => number | Error) };
  }
  export interface SetOptions { NX?: boolean; XX?: boolean; PX?: number; EX?: number; GET?: boolean }
  export interface RedisClientType {
    readonly isOpen: boolean;
    readonly isReady: boolean;
    connect(): Promise<RedisClientType>;
    quit(): Promise<string>;
    disconnect(): Promise<void>;
    on(event: 'error' | 'ready' | 'connect' | 'end', listener: (...args: any[]) => void): this;
    get(key: string): Promise<string | null>;
    set(key: string, value: string | number, options?: SetOptions): Promise<string | null>;
    del(keys: string | string[]): Promise<number>;
    exists(keys: string | string[]): Promise<number>;
    incr(key: string): Promise<number>;
    pExpire(key: string, ms: number): Promise<boolean>;
    expire(key: string, seconds: number): Promise<boolean>;
    pTTL(key: string): Promise<number>;
    ttl(key: string): Promise<number>;
    eval(script: string, options?: { keys?: string[]; arguments?: string[] }): Promise<unknown>;
    evalSha(sha: string, options?: { keys?: string[]; arguments?: string[] }): Promise<unknown>;
    scriptLoad(script: string): Promise<string>;
    sendCommand(args: string[]): Promise<unknown>;
    watch(keys: string | string[]): Promise<string>;
    /** A transaction: queue commands, then exec() runs them together in MULTI/EXEC. */
    multi(): RedisMulti;
    [command: string]: any;
  }
  export interface RedisMulti {
    get(key: string): this;
    set(key: string, value: string | number, options?: SetOptions): this;
    incr(key: string): this;
    del(keys: string | string[]): this;
    eval(script: string, options?: { keys?: string[]; arguments?: string[] }): this;
    addCommand(args: Array<string | number>): this;
    /** The replies in queue order (a command's own error in its place); rejects with WatchError if a watched key changed. */
    exec(): Promise<unknown[]>;
    /** Sends the queue without MULTI. */
    execAsPipeline(): Promise<unknown[]>;
    [command: string]: any;
  }
  export class WatchError extends Error {}
  export class ErrorReply extends Error {}
  export function createClient(options?: RedisClientOptions): RedisClientType;
}
`;

const REDLOCK = `declare module 'redlock' {
  import type Redis from 'ioredis';
  export interface Settings {
    /** Expected clock drift, as a fraction of the TTL (default 0.01). */
    driftFactor?: number;
    /** Attempts before giving up (default 10; -1 = forever). */
    retryCount?: number;
    /** ms between attempts (default 200). */
    retryDelay?: number;
    /** Random ms added to each delay (default 200). */
    retryJitter?: number;
    /** using(): extend this many ms before expiry (default 500). */
    automaticExtensionThreshold?: number;
  }
  export interface ClientExecutionResult {
    client: unknown;
    vote: 'for' | 'against';
    value?: number;
    error?: Error;
  }
  export interface ExecutionStats {
    readonly membershipSize: number;
    readonly quorumSize: number;
    readonly votesFor: Set<unknown>;
    readonly votesAgainst: Map<unknown, Error>;
  }
  export class ResourceLockedError extends Error {}
  export class ExecutionError extends Error {
    readonly attempts: ReadonlyArray<Promise<ExecutionStats> | ExecutionStats>;
  }
  export class Lock {
    readonly redlock: Redlock;
    readonly resources: string[];
    readonly value: string;
    readonly attempts: ReadonlyArray<Promise<ExecutionStats> | ExecutionStats>;
    /** Lab clock time (ms, Date.now()) until which the lock may be assumed held. */
    expiration: number;
    release(): Promise<unknown>;
    extend(duration: number): Promise<Lock>;
  }
  /** Aborted when an automatic extension fails: stop working on the resource. */
  export interface RedlockAbortSignal {
    readonly aborted: boolean;
    error?: Error;
    addEventListener(type: 'abort', listener: () => void): void;
    removeEventListener(type: 'abort', listener: () => void): void;
  }
  export default class Redlock {
    constructor(clients: Iterable<Redis | any>, settings?: Settings);
    readonly settings: Required<Settings>;
    acquire(resources: string[], duration: number, settings?: Settings): Promise<Lock>;
    release(lock: Lock, settings?: Settings): Promise<unknown>;
    extend(existing: Lock, duration: number, settings?: Settings): Promise<Lock>;
    using<T>(resources: string[], duration: number, routine: (signal: RedlockAbortSignal) => Promise<T>): Promise<T>;
    using<T>(resources: string[], duration: number, settings: Settings, routine: (signal: RedlockAbortSignal) => Promise<T>): Promise<T>;
    on(event: 'error', listener: (error: Error) => void): this;
    quit(): Promise<void>;
  }
  export { Redlock };
}
`;

const CRYPTO = `declare module 'crypto' {
  interface Bytes { readonly length: number; toString(encoding?: 'hex' | 'base64' | 'utf8'): string }
  interface Hash { update(data: string): Hash; digest(encoding: 'hex' | 'base64'): string }
  export function randomUUID(): string;
  export function randomBytes(size: number): Bytes;
  export function randomInt(max: number): number;
  export function randomInt(min: number, max: number): number;
  export function createHash(algorithm: 'sha1' | 'sha256' | 'md5' | string): Hash;
  const crypto: { randomUUID: typeof randomUUID; randomBytes: typeof randomBytes; randomInt: typeof randomInt; createHash: typeof createHash };
  export default crypto;
}
declare module 'node:crypto' {
  export * from 'crypto';
  import crypto from 'crypto';
  export default crypto;
}
`;

const CRON = `declare module 'node-cron' {
  export interface ScheduledTask { start(): void; stop(): void }
  /** In the lab the task runs at once in every client: a run compresses "every morning at 06:00" into now. */
  export function schedule(expression: string, task: () => void | Promise<void>, options?: Record<string, unknown>): ScheduledTask;
  export function validate(expression: string): boolean;
  const cron: { schedule: typeof schedule; validate: typeof validate };
  export default cron;
}
`;

const MISC = `declare module 'events' {
  export class EventEmitter {
    on(event: string, listener: (...args: any[]) => void): this;
    once(event: string, listener: (...args: any[]) => void): this;
    off(event: string, listener: (...args: any[]) => void): this;
    emit(event: string, ...args: any[]): boolean;
    listenerCount(event: string): number;
  }
  export default EventEmitter;
}
declare module 'timers/promises' {
  export function setTimeout<T = void>(ms: number, value?: T): Promise<T>;
  export function setImmediate<T = void>(value?: T): Promise<T>;
}
`;

/** What the sandbox gives every client as globals (it is not Node: no process, fs or Buffer). */
const GLOBALS = `interface Timer { ref(): Timer; unref(): Timer; hasRef(): boolean }
declare function setTimeout(handler: (...args: any[]) => void, ms?: number, ...args: any[]): Timer;
declare function setInterval(handler: (...args: any[]) => void, ms?: number, ...args: any[]): Timer;
declare function setImmediate(handler: (...args: any[]) => void, ...args: any[]): Timer;
declare function clearTimeout(timer: Timer | undefined): void;
declare function clearInterval(timer: Timer | undefined): void;
declare function clearImmediate(timer: Timer | undefined): void;
declare function queueMicrotask(callback: () => void): void;
declare const console: {
  log(...values: unknown[]): void;
  info(...values: unknown[]): void;
  warn(...values: unknown[]): void;
  error(...values: unknown[]): void;
  debug(...values: unknown[]): void;
};
declare const performance: { now(): number };
declare function require(module: 'ioredis'): typeof import('ioredis');
declare function require(module: 'redis'): typeof import('redis');
declare function require(module: 'redlock'): typeof import('redlock') & { default: typeof import('redlock').default };
declare function require(module: 'crypto' | 'node:crypto'): typeof import('crypto');
declare function require(module: 'lab'): typeof import('lab');
declare function require(module: 'node-cron'): typeof import('node-cron');
declare function require(module: string): any;
`;

/** One file per module, as Monaco's `addExtraLib(content, path)` wants them. */
export const SANDBOX_TYPE_FILES: ReadonlyArray<{ path: string; content: string }> = [
  { path: 'file:///node_modules/@types/lock-lab/globals.d.ts', content: GLOBALS },
  { path: 'file:///node_modules/@types/lock-lab/lab.d.ts', content: LAB },
  { path: 'file:///node_modules/@types/lock-lab/ioredis.d.ts', content: IOREDIS },
  { path: 'file:///node_modules/@types/lock-lab/redis.d.ts', content: NODE_REDIS },
  { path: 'file:///node_modules/@types/lock-lab/redlock.d.ts', content: REDLOCK },
  { path: 'file:///node_modules/@types/lock-lab/crypto.d.ts', content: CRYPTO },
  { path: 'file:///node_modules/@types/lock-lab/node-cron.d.ts', content: CRON },
  { path: 'file:///node_modules/@types/lock-lab/misc.d.ts', content: MISC },
];

