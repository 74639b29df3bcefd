import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import { history } from './helpers/history-builder';

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

  it('an acquire of unknown outcome inside the wait makes it indeterminate', () => {
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '100'], 'OK').at(50).redis(1, 1, 'DEL', ['lock'], 1);
    h.at(100).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '100'], null);
    h.at(200).redis(3, 1, 'SET', ['lock', 'c', 'NX', 'PX', '100'], null, { phase: 'info' });
    for (let t = 300; t <= 3000; t += 300) h.at(t).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '100'], null);
    const result = check(h.build(), { livenessBoundMs: 1000 }).checks.liveness;
    expect(result.valid).toBe('unknown');
    expect(result.indeterminate).toBe(1);
  });

  it('raw SET NX on a single node is read as lock attempts', () => {
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '100'], 'OK').at(50).redis(1, 1, 'DEL', ['lock'], 1);
    for (let t = 100; t <= 3000; t += 300) h.at(t).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '100'], null);
    const result = check(h.build(), { livenessBoundMs: 1000 }).checks.liveness;
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.message).toContain('1 of 1 nodes were up (quorum 1)');
  });
});
