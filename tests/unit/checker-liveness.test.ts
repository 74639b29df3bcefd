import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import { history } from './helpers/history-builder';

const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

describe('checker: liveness', () => {
  it('is violated when clients keep failing on a free lock with all nodes up', () => {
    const h = history().at(0).acquired(1, 'lock', { ttlMs: 1000, votes: [1, 2, 3, 4, 5] }).at(100).released(1);
    for (let t = 1000; t <= 7000; t += 500) h.at(t).failed(2);
    const result = check(h.build(), { livenessBoundMs: 5000 }).checks.liveness;
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.window).toEqual({ from: 1000, to: 6500 });
    expect(result.counterExample?.message).toBe(
      "For 5.5 s (1.00 s → 6.50 s) Client 2 kept failing to take 'lock', although it was free and 5 of 5 nodes were up (quorum 3); the bound is 5.0 s.",
    );
  });

  it('holds when failures are shorter than the bound, or the lock is legitimately held', () => {
    const h = history().at(0).acquired(1, 'lock', { ttlMs: 10_000 });
    for (let t = 100; t <= 9000; t += 500) h.at(t).failed(2);
    h.at(9100).released(1).at(9200).acquired(2, 'lock', { ttlMs: 1000 });
    expect(check(h.build(), { livenessBoundMs: 1000 }).checks.liveness.valid).toBe('held');
  });

  it('a crashed holder keeps the lock until its TTL: waiting for it is not a violation', () => {
    const h = history().at(0).acquired(1, 'lock', { ttlMs: 3000 }).at(10).crash(1);
    for (let t = 100; t <= 2900; t += 400) h.at(t).failed(2);
    h.at(3100).acquired(2, 'lock', { ttlMs: 3000 });
    expect(check(h.build(), { livenessBoundMs: 1000 }).checks.liveness.valid).toBe('held');
  });

  it('no quorum up is expected unavailability: noted, not a violation', () => {
    const h = history();
    for (let n = 1; n <= 5; n++) h.at(0).node(n, 'up');
    h.at(10).node(1, 'down').node(2, 'down').node(3, 'down');
    for (let t = 100; t <= 8000; t += 500) h.at(t).failed(1);
    const result = check(h.build(), { livenessBoundMs: 1000 }).checks.liveness;
    expect(result.valid).toBe('held');
    expect(result.notes[0]).toContain('only 2 of 5 nodes were up (quorum 3)');
  });

  it('Redlock with three of five nodes down: the note counts the lab’s five nodes, not only the votes it saw', () => {
    // Redlock's lock events name only the nodes it had answers from when it decided: here three, with a quorum of 3.
    const h = history();
    for (let n = 1; n <= 5; n++) h.at(0).node(n, 'up');
    h.at(5).acquired(1, 'lock', { ttlMs: 500, votes: [1, 2, 3], of: 3, quorum: 3 }).at(50).released(1);
    h.at(60).node(3, 'down').node(4, 'down').node(5, 'down');
    for (let t = 100; t <= 8000; t += 500) h.at(t).failed(2);
    const result = check(h.build(), { livenessBoundMs: 1000, nodes: 5 }).checks.liveness;
    expect(result.valid).toBe('held');
    expect(result.notes[0]).toContain('only 2 of 5 nodes were up (quorum 3)');
  });

  it('an acquire whose reply timed out may have set the key: failing until its TTL runs out is no violation (a correct lock under load)', () => {
    // Client 3's SET NX PX 5000 is sent at 1000 and times out at 1500: the key may be on the node until 6500.
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '5000'], 'OK').at(50).redis(1, 1, 'DEL', ['lock'], 1);
    h.at(900).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '5000'], null);
    h.at(1000).redis(3, 1, 'SET', ['lock', 'c', 'NX', 'PX', '5000'], null, { phase: 'info', tookMs: 500 });
    for (let t = 1600; t <= 6400; t += 200) h.at(t).redis(1 + (t % 3), 1, 'SET', ['lock', `x${t}`, 'NX', 'PX', '5000'], null);
    h.at(6600).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '5000'], 'OK');
    const result = check(h.build(), { livenessBoundMs: 1000 }).checks.liveness;
    expect(result.valid).toBe('held');
    expect(result.violations).toBe(0);
  });

  it('a wait that outlives the unanswered acquire’s TTL is still a violation, counted from when that key expired', () => {
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '100'], 'OK').at(50).redis(1, 1, 'DEL', ['lock'], 1);
    h.at(100).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '100'], null);
    h.at(200).redis(3, 1, 'SET', ['lock', 'c', 'NX', 'PX', '100'], null, { phase: 'info' });
    for (let t = 300; t <= 3000; t += 300) h.at(t).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '100'], null);
    const result = check(h.build(), { livenessBoundMs: 1000 }).checks.liveness;
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.window).toEqual({ from: 301, to: 1501 });
  });

  it('a wait explained by an unanswered acquire is withdrawn even after it was counted', () => {
    // The acquire hangs 3 s (a paused node): the failures meanwhile are reported, then explained by its reply.
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '100'], 'OK').at(50).redis(1, 1, 'DEL', ['lock'], 1);
    h.at(100).redis(3, 1, 'SET', ['lock', 'c', 'NX', 'PX', '4000'], null, { phase: 'info', tookMs: 3000 });
    for (let t = 200; t <= 2900; t += 300) h.at(t).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '100'], null);
    expect(check(h.build(), { livenessBoundMs: 1000 }).checks.liveness.valid).toBe('held');
  });

  it('a wait already too long before the unanswered acquire was sent stands', () => {
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '100'], 'OK').at(50).redis(1, 1, 'DEL', ['lock'], 1);
    for (let t = 100; t <= 2500; t += 300) h.at(t).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '100'], null);
    h.at(2600).redis(3, 1, 'SET', ['lock', 'c', 'NX', 'PX', '4000'], null, { phase: 'info' });
    const result = check(h.build(), { livenessBoundMs: 1000 }).checks.liveness;
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.window).toEqual({ from: 101, to: 1301 });
  });

  it('an unanswered acquire with no TTL may hold the key forever: a long wait after it is indeterminate', () => {
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '100'], 'OK').at(50).redis(1, 1, 'DEL', ['lock'], 1);
    h.at(100).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '100'], null);
    h.at(200).redis(3, 1, 'SET', ['lock', 'c', 'NX'], null, { phase: 'info' });
    for (let t = 300; t <= 3000; t += 300) h.at(t).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '100'], null);
    const result = check(h.build(), { livenessBoundMs: 1000 }).checks.liveness;
    expect(result.valid).toBe('unknown');
    expect(result.indeterminate).toBe(1);
    expect(result.violations).toBe(0);
  });

  it('a crashed holder whose key has no TTL is still a violation when an unanswered acquire came and went before', () => {
    const h = history().at(0).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '200'], null, { phase: 'info' });
    h.at(500).redis(1, 1, 'SET', ['lock', 'a', 'NX'], 'OK').at(600).crash(1);
    for (let t = 700; t <= 4000; t += 300) h.at(t).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '200'], null);
    const result = check(h.build(), { livenessBoundMs: 1000 }).checks.liveness;
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.message).toContain('crashed at 600 ms without releasing it and its key has no TTL');
  });

  it('a release whose reply timed out or failed leaves the hold until its key expires: waiting for it is no violation', () => {
    for (const phase of ['info', 'fail'] as const) {
      const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '5000'], 'OK');
      h.at(100).redis(1, 1, 'EVAL', [RELEASE, '1', 'lock', 'a'], 'Command timed out', { phase, tookMs: 500 });
      for (let t = 700; t <= 4900; t += 200) h.at(t).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '5000'], null);
      h.at(5100).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '5000'], 'OK');
      const result = check(h.build(), { livenessBoundMs: 1000 }).checks.liveness;
      expect({ phase, valid: result.valid }).toEqual({ phase, valid: 'held' });
    }
  });

  it('a release that answered frees the lock, so failing on after it is starvation', () => {
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '5000'], 'OK');
    h.at(100).redis(1, 1, 'EVAL', [RELEASE, '1', 'lock', 'a'], 1);
    for (let t = 700; t <= 4900; t += 200) h.at(t).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '5000'], null);
    expect(check(h.build(), { livenessBoundMs: 1000 }).checks.liveness.valid).toBe('violated');
  });

  it('raw SET NX on a single node is read as lock attempts', () => {
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '100'], 'OK').at(50).redis(1, 1, 'DEL', ['lock'], 1);
    for (let t = 100; t <= 3000; t += 300) h.at(t).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '100'], null);
    const result = check(h.build(), { livenessBoundMs: 1000 }).checks.liveness;
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.message).toContain('1 of 1 nodes were up (quorum 1)');
  });
});
