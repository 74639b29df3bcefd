/**
 * One reading of the history (lib/lock-ops), four views of it: the checker,
 * the timeline's layout, the measurements and the votes view. Random
 * histories (seeded: a failure names its seed) of hand-written locks (SET NX,
 * SETNX, acquire scripts by EVAL and by EVALSHA answered NOSCRIPT, on one node
 * or asked of several), the `redlock` module's attempts with their commands,
 * renewals, releases and crashes; every view must count the same acquires
 * granted, holds, renewals and releases.
 */
import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import { Keyspace } from '@/lib/checker/keyspace';
import { LockSignals } from '@/lib/checker/lock-signals';
import { IncrementalLayout, layoutTimeline } from '@/components/timeline/layout';
import type { HistoryEvent, LockVote, ReplyJson } from '@/lib/history';
import { readLockOps } from '@/lib/lock-ops/acquires';
import { measureRun } from '@/lib/measurements';
import { readAcquires } from '@/lib/measurements/acquires';
import { seededRandom, type Random } from '@/lib/random';
import { deriveVotes } from '@/lib/votes';
import { HistoryBuilder } from './helpers/history-builder';

const ACQUIRE_SCRIPT = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])";
const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const EXTEND_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const RAW_KEY = 'lock:raw';
const MODULE_KEY = 'lock:module';

type Via = 'set-nx' | 'setnx' | 'eval' | 'evalsha';
type Answer = 'ok' | 'nil' | 'error' | 'timeout';

interface Generated {
  events: HistoryEvent[];
  nodes: number;
}

/** Builds random histories whose commands are always answered before the next step (a crash never cuts one). */
class RandomHistory {
  private readonly b = new HistoryBuilder();
  private t = 0;
  private opId = 0;
  private tokens = 0;
  private readonly dead = new Set<number>();
  /** Per client, what it holds: the key, its token, and whether the module took it. */
  private readonly holding = new Map<number, { token: string; module: boolean }>();

  constructor(
    private readonly random: Random,
    readonly nodes: number,
    private readonly clients: number,
  ) {}

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  private tick(): number {
    this.t += 1 + Math.floor(this.random() * 20);
    return this.t;
  }

  private push(input: Parameters<HistoryBuilder['push']>[0]): void {
    this.b.push(input, this.tick());
  }

  private invoke(client: number, node: number, command: string, args: string[]): number {
    const opId = ++this.opId;
    this.push({ type: 'redis', phase: 'invoke', opId, client, node, command, args });
    return opId;
  }

  private complete(client: number, node: number, command: string, opId: number, answer: Answer | 'noscript', ok: ReplyJson, nil: ReplyJson): void {
    const base = { type: 'redis' as const, opId, client, node, command };
    if (answer === 'ok') this.push({ ...base, phase: 'ok', reply: ok });
    else if (answer === 'nil') this.push({ ...base, phase: 'ok', reply: nil });
    else if (answer === 'noscript') this.push({ ...base, phase: 'fail', error: 'NOSCRIPT No matching script.' });
    else if (answer === 'error') this.push({ ...base, phase: 'fail', error: 'ECONNREFUSED' });
    else this.push({ ...base, phase: 'info', error: 'Command timed out' });
  }

  private answer(): Answer {
    const r = this.random();
    return r < 0.55 ? 'ok' : r < 0.85 ? 'nil' : r < 0.93 ? 'error' : 'timeout';
  }

  /** One acquire command on `node`, answered (an EVALSHA first answered NOSCRIPT, then its EVAL). */
  private ask(client: number, node: number, via: Via, key: string, token: string): Answer {
    const answer = this.answer();
    const ttl = String(100 + Math.floor(this.random() * 900));
    if (via === 'set-nx') this.complete(client, node, 'set', this.invoke(client, node, 'set', [key, token, 'NX', 'PX', ttl]), answer, 'OK', null);
    else if (via === 'setnx') this.complete(client, node, 'setnx', this.invoke(client, node, 'setnx', [key, token]), answer, 1, 0);
    else {
      if (via === 'evalsha') this.complete(client, node, 'evalsha', this.invoke(client, node, 'evalsha', ['f00d', '1', key, token, ttl]), 'noscript', null, null);
      this.complete(client, node, 'eval', this.invoke(client, node, 'eval', [ACQUIRE_SCRIPT, '1', key, token, ttl]), answer, 'OK', null);
    }
    return answer;
  }

  /** Hand-written: one node, or a Redlock of its own asking every node in turn; granted by most of them. */
  private rawAcquire(client: number): void {
    const token = `t${++this.tokens}`;
    const via = this.pick<Via>(['set-nx', 'setnx', 'eval', 'evalsha']);
    const asked = this.nodes === 1 ? [1] : Array.from({ length: this.nodes }, (_, i) => i + 1);
    const ok = asked.filter((node) => this.ask(client, node, via, RAW_KEY, token) === 'ok').length;
    if (ok * 2 > asked.length) this.holding.set(client, { token, module: false });
  }

  /** The redlock module: attempt, its SET NX on every node, and what it decided with the votes it counted. */
  private moduleAcquire(client: number): void {
    const token = `m${++this.tokens}`;
    this.push({ type: 'lock', client, event: 'attempt', resources: [MODULE_KEY], token });
    const votes: LockVote[] = [];
    for (let node = 1; node <= this.nodes; node++) {
      const answer = this.ask(client, node, 'set-nx', MODULE_KEY, token);
      votes.push({ node, ok: answer === 'ok', ...(answer === 'error' || answer === 'timeout' ? { error: answer === 'timeout' ? 'Command timed out' : 'ECONNREFUSED' } : {}) });
    }
    const acquired = votes.filter((v) => v.ok).length * 2 > this.nodes;
    const quorum = Math.floor(this.nodes / 2) + 1;
    this.push({ type: 'lock', client, event: acquired ? 'acquired' : 'failed', resources: [MODULE_KEY], token, votes, quorum, validityMs: 500 });
    if (acquired) this.holding.set(client, { token, module: true });
  }

  private release(client: number): void {
    const held = this.holding.get(client);
    if (!held) return;
    this.holding.delete(client);
    if (held.module) {
      this.push({ type: 'lock', client, event: 'released', resources: [MODULE_KEY], token: held.token });
      return;
    }
    for (let node = 1; node <= this.nodes; node++) {
      if (this.random() < 0.5) this.complete(client, node, 'del', this.invoke(client, node, 'del', [RAW_KEY]), 'ok', 1, 0);
      else this.complete(client, node, 'eval', this.invoke(client, node, 'eval', [RELEASE_SCRIPT, '1', RAW_KEY, held.token]), 'ok', 1, 0);
    }
  }

  /** The holder renews: the module says so; hand-written code renews on every node, by script or PEXPIRE (Redis may say no). */
  private extend(client: number): void {
    const held = this.holding.get(client);
    if (!held) return;
    if (held.module) {
      this.push({ type: 'lock', client, event: 'extended', resources: [MODULE_KEY], token: held.token, ttlMs: 500 });
      return;
    }
    for (let node = 1; node <= this.nodes; node++) {
      const answer = this.random() < 0.8 ? 'ok' : 'nil';
      if (this.random() < 0.5) this.complete(client, node, 'eval', this.invoke(client, node, 'eval', [EXTEND_SCRIPT, '1', RAW_KEY, held.token, '500']), answer, 1, 0);
      else this.complete(client, node, 'pexpire', this.invoke(client, node, 'pexpire', [RAW_KEY, '500']), answer, 1, 0);
    }
  }

  step(): void {
    const alive = Array.from({ length: this.clients }, (_, i) => i + 1).filter((c) => !this.dead.has(c));
    if (alive.length === 0) return;
    const client = this.pick(alive);
    const r = this.random();
    if (r < 0.04) {
      this.dead.add(client);
      this.holding.delete(client);
      this.push({ type: 'client', client, event: this.pick(['crash', 'exit', 'error'] as const) });
    } else if (this.holding.has(client)) {
      if (r < 0.55) this.release(client);
      else if (r < 0.8) this.extend(client);
      else this.push({ type: 'job', phase: 'enter', client, job: 'job', execution: 1 });
    } else if (r < 0.7) this.rawAcquire(client);
    else this.moduleAcquire(client);
  }

  build(): Generated {
    return { events: this.b.build(), nodes: this.nodes };
  }
}

function generate(seed: number): Generated {
  const random = seededRandom(seed);
  const nodes = [1, 1, 3, 5][Math.floor(random() * 4)] as number;
  const history = new RandomHistory(random, nodes, 1 + Math.floor(random() * 3));
  const steps = 5 + Math.floor(random() * 40);
  for (let i = 0; i < steps; i++) history.step();
  return history.build();
}

/** The checker's reading of the commands: the lock signals off its keyspace model. */
function checkerSignals(events: readonly HistoryEvent[]): { grants: number; releases: number; extensions: number } {
  const signals = new LockSignals([]);
  const keyspace = new Keyspace([signals]);
  let grants = 0;
  let releases = 0;
  let extensions = 0;
  for (const e of events) {
    keyspace.observe(e);
    for (const s of signals.take()) {
      if (s.kind === 'acquire' && s.outcome === 'ok') grants += 1;
      else if (s.kind === 'release') releases += 1;
      else if (s.kind === 'extend') extensions += 1;
    }
  }
  return { grants, releases, extensions };
}

function counts(events: readonly HistoryEvent[], nodes: number) {
  const ops = readLockOps(events);
  const measured = measureRun(events);
  const timeline = layoutTimeline(events);
  const votes = deriveVotes(events, { nodes });
  const verdict = check(events, { nodes });
  const signals = checkerSignals(events);
  const holdIntervals = timeline.lanes.flatMap((l) => l.intervals.filter((i) => i.kind === 'hold'));
  const moduleReleases = events.filter((e) => e.type === 'lock' && e.event === 'released').length;
  const moduleExtensions = events.filter((e) => e.type === 'lock' && e.event === 'extended').length;
  // The votes view's own outcome is what the client believes; granted by the nodes is most of those asked saying OK.
  const votesGranted = votes.attempts.filter((a) => (a.quorum !== null ? a.outcome === 'acquired' : a.granted.length * 2 > a.votes.length)).length;
  return {
    ops: {
      acquires: ops.filter((o) => o.kind === 'attempt').length,
      granted: ops.filter((o) => o.kind === 'attempt' && o.acquire.outcome === 'granted').length,
      releases: ops.filter((o) => o.kind === 'released' && !o.failed).length,
      extensions: ops.filter((o) => o.kind === 'extended').length,
      nodeGrants: ops.filter((o) => o.kind === 'answer' && o.vote.answer === 'ok').length,
    },
    measurements: {
      acquires: measured.totals.granted + measured.totals.failed + measured.totals.timeout + measured.totals.unanswered,
      granted: measured.totals.granted,
      holds: readAcquires(events).holds.length,
    },
    timeline: {
      granted: holdIntervals.filter((i) => i.end !== 'outvoted').length,
      holds: holdIntervals.length,
      releases: timeline.lanes.flatMap((l) => l.markers).filter((m) => m.kind === 'released').length,
      extensions: timeline.lanes.flatMap((l) => l.markers).filter((m) => m.kind === 'extended').length,
    },
    votes: {
      acquires: votes.attempts.length,
      granted: votesGranted,
      nodeGrants: votes.grants.length,
    },
    checker: { granted: verdict.stats.lockAcquires, nodeGrants: signals.grants, releases: signals.releases + moduleReleases, extensions: signals.extensions + moduleExtensions },
  };
}

describe('the four views read the history the same way', () => {
  it('agree on acquires, grants, holds and releases over 300 random histories', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { events, nodes } = generate(seed);
      const c = counts(events, nodes);
      const where = `seed ${seed} (${nodes} node${nodes > 1 ? 's' : ''}, ${events.length} events)`;
      expect({ where, n: c.measurements.acquires }).toEqual({ where, n: c.ops.acquires });
      expect({ where, n: c.votes.acquires }).toEqual({ where, n: c.ops.acquires });
      for (const granted of [c.measurements.granted, c.timeline.granted, c.votes.granted]) expect({ where, granted }).toEqual({ where, granted: c.ops.granted });
      // The checker counts a hand-written acquire when its first node says OK: the same only on one node.
      if (nodes === 1) expect({ where, granted: c.checker.granted }).toEqual({ where, granted: c.ops.granted });
      expect({ where, nodeGrants: c.votes.nodeGrants }).toEqual({ where, nodeGrants: c.ops.nodeGrants });
      expect({ where, nodeGrants: c.checker.nodeGrants }).toEqual({ where, nodeGrants: c.ops.nodeGrants });
      expect({ where, holds: c.measurements.holds }).toEqual({ where, holds: c.timeline.holds });
      expect({ where, releases: c.timeline.releases }).toEqual({ where, releases: c.ops.releases });
      // A hand-written release deletes the key on every node: one release of the lock, a release signal per node.
      if (nodes === 1) expect({ where, releases: c.checker.releases }).toEqual({ where, releases: c.ops.releases });
      // A renewal is per node everywhere: each node asked to extend a held key, and saying yes.
      expect({ where, extensions: c.timeline.extensions }).toEqual({ where, extensions: c.ops.extensions });
      expect({ where, extensions: c.checker.extensions }).toEqual({ where, extensions: c.ops.extensions });
    }
  });

  it('generates histories that exercise every kind of acquire, outcome and end', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 300; seed++) {
      for (const op of readLockOps(generate(seed).events)) {
        seen.add(op.kind);
        if (op.kind === 'attempt') seen.add(`source:${op.acquire.source}:${op.acquire.outcome}`);
      }
    }
    for (const kind of ['attempt', 'vote', 'answer', 'decided', 'released', 'extended', 'extend-failed', 'ended']) expect(seen).toContain(kind);
    for (const outcome of ['granted', 'failed', 'timeout']) {
      expect(seen).toContain(`source:commands:${outcome}`);
      expect(seen).toContain(`source:lock-event:${outcome}`);
    }
  });
});

describe("the timeline's live layout", () => {
  it('pictures a growing history exactly as a layout from scratch does, at every batch and end time', () => {
    for (let seed = 1; seed <= 120; seed++) {
      const { events } = generate(seed);
      const random = seededRandom(seed + 10_000);
      const live = new IncrementalLayout();
      let earlier: { shown: ReturnType<typeof layoutTimeline>; copy: string } | null = null;
      for (let n = 0; n <= events.length; ) {
        const prefix = events.slice(0, n);
        const endT = (prefix[prefix.length - 1]?.t ?? 0) + Math.floor(random() * 50);
        const shown = live.layout(prefix, { clients: 3, endT });
        expect({ seed, n, shown }).toEqual({ seed, n, shown: layoutTimeline(prefix, { clients: 3, endT }) });
        // A picture handed out earlier is not changed by the ones after it (React may still be drawing it).
        if (earlier) expect(JSON.stringify(earlier.shown)).toBe(earlier.copy);
        earlier = { shown, copy: JSON.stringify(shown) };
        // Batches of any size, and now and then the same history again (a tick of the live clock).
        n += Math.floor(random() * 6);
      }
      // Time travel back, then forward again: laid out afresh, still the same pictures.
      const back = events.slice(0, Math.floor(events.length / 2));
      expect(live.layout(back, { clients: 3 })).toEqual(layoutTimeline(back, { clients: 3 }));
      expect(live.layout(events, { clients: 3 })).toEqual(layoutTimeline(events, { clients: 3 }));
    }
  });
});
