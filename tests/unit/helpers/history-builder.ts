/**
 * A small builder for hand-written histories, so a checker test reads like
 * the story it tells:
 *
 *   const h = history()
 *     .at(0).acquired(1, 'lock', { ttlMs: 80 })
 *     .at(10).enter(1, 'report')
 *     .at(160).exit(1, 'report');
 *
 * `at(t)` sets the lab time of the next events; seq numbers are assigned in
 * order. `mark(name)` names the last event so a test can assert on its seq.
 */
import type {
  ClientEvent,
  HistoryEvent,
  LockEvent,
  LockVote,
  NodeStateEvent,
  ReplyJson,
  StoreWriteEvent,
} from '@/lib/history';
import type { NodeState, Persistence } from '@/lib/cluster';

type Input = HistoryEvent extends infer E ? (E extends HistoryEvent ? Omit<E, 'seq' | 't'> : never) : never;

export interface LockDetails {
  token?: string;
  ttlMs?: number;
  validityMs?: number;
  /** Nodes that voted yes, out of `of` nodes (votes for the others are no). */
  votes?: number[];
  of?: number;
  quorum?: number;
}

export class HistoryBuilder {
  readonly events: HistoryEvent[] = [];
  private now = 0;
  private opId = 0;
  private readonly executions = new Map<string, number>();
  private readonly openExecution = new Map<string, number>();
  private readonly marks = new Map<string, number>();
  runId: string | undefined = undefined;

  at(t: number): this {
    this.now = t;
    return this;
  }

  get lastSeq(): number {
    return this.events.length - 1;
  }

  mark(name: string): this {
    this.marks.set(name, this.lastSeq);
    return this;
  }

  seq(name: string): number {
    const seq = this.marks.get(name);
    if (seq === undefined) throw new Error(`no mark ${name}`);
    return seq;
  }

  push(input: Input, t = this.now): this {
    const event = { ...input, seq: this.events.length, t, ...(this.runId !== undefined ? { runId: this.runId } : {}) } as HistoryEvent;
    this.events.push(event);
    return this;
  }

  // --- jobs ---
  enter(client: number, job = 'job'): this {
    const execution = (this.executions.get(job) ?? 0) + 1;
    this.executions.set(job, execution);
    this.openExecution.set(`${client}|${job}`, execution);
    return this.push({ type: 'job', phase: 'enter', client, job, execution });
  }

  exit(client: number, job = 'job'): this {
    const execution = this.openExecution.get(`${client}|${job}`);
    if (execution === undefined) throw new Error(`client ${client} is not inside ${job}`);
    this.openExecution.delete(`${client}|${job}`);
    return this.push({ type: 'job', phase: 'exit', client, job, execution });
  }

  // --- clients ---
  client(client: number, event: ClientEvent['event'], durationMs?: number): this {
    return this.push({ type: 'client', client, event, ...(durationMs !== undefined ? { durationMs } : {}) });
  }
  start(client: number): this {
    return this.client(client, 'start');
  }
  pause(client: number): this {
    return this.client(client, 'pause');
  }
  resume(client: number): this {
    return this.client(client, 'resume');
  }
  crash(client: number): this {
    return this.client(client, 'crash');
  }

  log(client = 1, text = 'working'): this {
    return this.push({ type: 'console', client, level: 'log', text });
  }

  // --- nodes ---
  node(node: number, state: NodeState, persistence: Persistence = 'none'): this {
    const event: Omit<NodeStateEvent, 'seq' | 't'> = { type: 'node', node, state, role: 'master', persistence, reason: state === 'down' ? 'killed (SIGKILL)' : 'restarted' };
    return this.push(event);
  }

  // --- the redlock module's meaning ---
  lock(client: number, event: LockEvent['event'], resource = 'lock', details: LockDetails = {}): this {
    const of = details.of ?? details.votes?.length;
    const votes: LockVote[] | undefined =
      details.votes && of !== undefined ? Array.from({ length: of }, (_, i) => ({ node: i + 1, ok: details.votes?.includes(i + 1) ?? false })) : undefined;
    return this.push({
      type: 'lock',
      client,
      event,
      resources: [resource],
      token: details.token ?? `token-${client}`,
      ...(votes ? { votes } : {}),
      ...(details.quorum !== undefined ? { quorum: details.quorum } : {}),
      ...(details.ttlMs !== undefined ? { ttlMs: details.ttlMs } : {}),
      ...(details.validityMs !== undefined ? { validityMs: details.validityMs } : {}),
    });
  }
  attempt(client: number, resource = 'lock'): this {
    return this.lock(client, 'attempt', resource);
  }
  acquired(client: number, resource = 'lock', details: LockDetails = {}): this {
    return this.lock(client, 'acquired', resource, details);
  }
  failed(client: number, resource = 'lock'): this {
    return this.lock(client, 'failed', resource);
  }
  released(client: number, resource = 'lock'): this {
    return this.lock(client, 'released', resource);
  }
  extended(client: number, resource = 'lock', details: LockDetails = {}): this {
    return this.lock(client, 'extended', resource, details);
  }

  // --- raw redis ---
  /**
   * A command and its completion `tookMs` later (default 1). `reply` undefined
   * with phase 'info' is a command whose outcome is unknown.
   */
  redis(client: number, node: number, command: string, args: string[], reply: ReplyJson, options: { phase?: 'ok' | 'fail' | 'info'; tookMs?: number } = {}): this {
    const opId = ++this.opId;
    this.push({ type: 'redis', phase: 'invoke', opId, client, node, command, args });
    const phase = options.phase ?? 'ok';
    const done = { type: 'redis' as const, phase, opId, client, node, command };
    if (phase === 'ok') return this.push({ ...done, reply }, this.now + (options.tookMs ?? 1));
    if (phase === 'fail') return this.push({ ...done, error: String(reply) }, this.now + (options.tookMs ?? 1));
    return this.push({ ...done, error: 'timeout' }, this.now + (options.tookMs ?? 1));
  }

  // --- the protected store ---
  write(client: number, key: string, token: number | null, outcome: { accepted: boolean; highest: number | null }, value = `v${client}`): this {
    const event: Omit<StoreWriteEvent, 'seq' | 't'> = { type: 'store', client, key, value, token, accepted: outcome.accepted, highest: outcome.highest };
    return this.push(event);
  }

  build(): HistoryEvent[] {
    return [...this.events];
  }
}

export function history(): HistoryBuilder {
  return new HistoryBuilder();
}

/** The release script both source articles use: delete only if the value is still our token. */
export const RELEASE_SCRIPT = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;
/** A token-checked extension (the watchdog). */
export const EXTEND_SCRIPT = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`;
