/**
 * The lock operations read off a history (lib/lock-ops): what an acquire is,
 * for the timeline, the measurements and the votes view alike.
 */
import { describe, expect, it } from 'vitest';
import { layoutTimeline } from '@/components/timeline/layout';
import { readLockOps, type LockOp } from '@/lib/lock-ops/acquires';
import { acquireRequest } from '@/lib/lock-ops/commands';
import { measureRun } from '@/lib/measurements';
import type { RedisInvokeEvent } from '@/lib/history';
import { history } from './helpers/history-builder';

const kinds = (ops: LockOp[]) => ops.map((o) => (o.kind === 'decided' ? `decided:${o.outcome}` : o.kind));
const invoke = (command: string, args: string[]): RedisInvokeEvent => ({ type: 'redis', phase: 'invoke', opId: 1, client: 1, node: 1, command, args, seq: 0, t: 0 });

describe('lock operations', () => {
  it('reads SET NX, SETNX and an acquire script as asking for a lock, with the TTL each asked for', () => {
    expect(acquireRequest(invoke('set', ['k', 'v', 'nx', 'px', '300']))).toEqual({ key: 'k', token: 'v', ttlMs: 300, via: 'set-nx' });
    expect(acquireRequest(invoke('SET', ['k', 'v', 'EX', '2', 'NX']))).toEqual({ key: 'k', token: 'v', ttlMs: 2000, via: 'set-nx' });
    expect(acquireRequest(invoke('setnx', ['k', 'v']))).toEqual({ key: 'k', token: 'v', ttlMs: null, via: 'setnx' });
    const script = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])";
    expect(acquireRequest(invoke('eval', [script, '1', 'k', 'v', '500']))).toEqual({ key: 'k', token: 'v', ttlMs: 500, via: 'script' });
    expect(acquireRequest(invoke('set', ['k', 'v', 'PX', '300']))).toBeNull();
    expect(acquireRequest(invoke('eval', ["return redis.call('del', KEYS[1])", '1', 'k', 'v']))).toBeNull();
  });

  it('counts a SETNX lock in the timeline and the measurements alike, released by its DEL', () => {
    const h = history()
      .at(0).redis(1, 1, 'setnx', ['lock:a', 'tok-1'], 1)
      .at(5).redis(2, 1, 'setnx', ['lock:a', 'tok-2'], 0)
      .at(100).redis(1, 1, 'del', ['lock:a'], 1)
      .build();
    expect(kinds(readLockOps(h))).toEqual(['attempt', 'vote', 'answer', 'decided:granted', 'attempt', 'vote', 'answer', 'decided:failed', 'released']);
    const lane1 = layoutTimeline(h).lanes.find((l) => l.client === 1);
    expect(lane1?.intervals).toEqual([expect.objectContaining({ kind: 'hold', from: 1, to: 101, end: 'released', validUntil: null })]);
    expect(measureRun(h).totals).toEqual({ granted: 1, failed: 1, timeout: 0, unanswered: 0 });
  });

  it('reads one token asked of several nodes as one acquire, decided again when a late node answers', () => {
    const h = history()
      .at(0).redis(1, 1, 'set', ['lock', 'tok', 'NX', 'PX', '1000'], 'OK')
      .at(10).redis(1, 2, 'set', ['lock', 'tok', 'NX', 'PX', '1000'], null)
      .at(20).redis(1, 3, 'set', ['lock', 'tok', 'NX', 'PX', '1000'], 'OK')
      .build();
    const ops = readLockOps(h);
    expect(ops.filter((o) => o.kind === 'attempt')).toHaveLength(1);
    expect(ops.filter((o) => o.kind === 'decided').map((o) => (o.kind === 'decided' ? o.outcome : ''))).toEqual(['granted', 'failed', 'granted']);
    // The timeline shows the hold it gave, taken back, then given again by the majority.
    const holds = layoutTimeline(h).lanes[0]?.intervals.filter((i) => i.kind === 'hold');
    expect(holds?.map((i) => i.end)).toEqual(['outvoted', null]);
    expect(measureRun(h).totals.granted).toBe(1);
  });

  it('pairs an EVALSHA answered NOSCRIPT with the EVAL after it: one vote of the module’s open attempt', () => {
    const script = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])";
    const h = history()
      .at(0).lock(1, 'attempt', 'lock', { token: 'tok' })
      .at(1).redis(1, 1, 'evalsha', ['abc', '1', 'lock', 'tok', '1000'], 'NOSCRIPT No matching script', { phase: 'fail' })
      .at(3).redis(1, 1, 'eval', [script, '1', 'lock', 'tok', '1000'], 'OK')
      .at(5).lock(1, 'acquired', 'lock', { token: 'tok', votes: [1], of: 1, quorum: 1 })
      .build();
    const ops = readLockOps(h);
    expect(kinds(ops)).toEqual(['attempt', 'vote', 'vote', 'answer', 'decided:granted']);
    const decided = ops.find((o) => o.kind === 'decided');
    expect(decided?.acquire.votes.get(1)).toMatchObject({ answer: 'ok', sentT: 3, t: 4 });
  });

  it('leaves the acquires of a client that crashed unanswered, and its later answers deciding nothing', () => {
    const h = history()
      .at(0).push({ type: 'redis', phase: 'invoke', opId: 1, client: 1, node: 1, command: 'set', args: ['lock', 'tok', 'NX'] })
      .at(5).crash(1)
      .at(6).push({ type: 'redis', phase: 'ok', opId: 1, client: 1, node: 1, command: 'set', reply: 'OK' })
      .build();
    const ops = readLockOps(h);
    expect(kinds(ops)).toEqual(['attempt', 'vote', 'ended', 'answer']);
    expect(measureRun(h).totals).toEqual({ granted: 0, failed: 0, timeout: 0, unanswered: 1 });
  });

  it('reads a renewal script on a held key as an extension, not its release (lesson 3’s watchdog)', () => {
    const extend = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
    const release = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
    const h = history()
      .at(0).redis(1, 1, 'set', ['lock', 'tok', 'NX', 'PX', '300'], 'OK')
      .at(200).redis(1, 1, 'eval', [extend, '1', 'lock', 'tok', '300'], 1)
      .at(400).redis(1, 1, 'eval', [extend, '1', 'lock', 'tok', '300'], 0)
      .at(450).redis(1, 1, 'eval', [release, '1', 'lock', 'tok'], 1)
      .build();
    expect(kinds(readLockOps(h))).toEqual(['attempt', 'vote', 'answer', 'decided:granted', 'extended', 'extend-failed', 'released']);
    const lane = layoutTimeline(h).lanes[0];
    expect(lane?.intervals).toEqual([expect.objectContaining({ kind: 'hold', from: 1, to: 451, end: 'released', validUntil: 501 })]);
    expect(lane?.markers.map((m) => m.kind)).toEqual(['extended', 'extend-failed', 'released']);
    // The hold lasts to its release: the renewal moved its end past the first TTL.
    const held = measureRun(h).heldMs;
    expect(held).toBe(450);
  });
});
