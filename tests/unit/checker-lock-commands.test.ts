import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import type { DiagnosisKind, Verdict } from '@/lib/checker';
import { history } from './helpers/history-builder';

const kinds = (verdict: Verdict): DiagnosisKind[] => verdict.diagnoses.map((d) => d.kind);
const find = (verdict: Verdict, kind: DiagnosisKind) => verdict.diagnoses.find((d) => d.kind === kind);

// The SET family, GETDEL, PERSIST and the absolute EXPIREs, as the keyspace model reads them (lib/checker/keyspace.ts).
describe('checker: lock commands beyond SET NX PX', () => {
  it('SETNX (any case) is an acquire, and a refused one (0) is a failed acquire', () => {
    const h = history().at(0).redis(1, 1, 'setnx', ['lock', 'a'], 1).at(10).redis(1, 1, 'DEL', ['lock'], 1);
    // The lock is free from 11 ms on, yet Client 2's SETNX keeps answering 0: a liveness violation only if 0 counts as a failure.
    for (let t = 100; t <= 2000; t += 200) h.at(t).redis(2, 1, 'SETNX', ['lock', 'b'], 0);
    const verdict = check(h.build(), { livenessBoundMs: 1000 });
    expect(verdict.stats.lockAcquires).toBe(1);
    expect(verdict.checks.liveness.valid).toBe('violated');
  });

  it('SETNX then PEXPIRE: the PEXPIRE gives the lock its TTL (not a renewal), so a TTL shorter than the job is named', () => {
    const h = history()
      .at(0).redis(1, 1, 'SETNX', ['lock', 'a'], 1)
      .at(2).redis(1, 1, 'PEXPIRE', ['lock', '80'], 1)
      .at(5).enter(1, 'report')
      .at(155).exit(1, 'report');
    expect(find(check(h.build()), 'ttl-shorter-than-job')?.message).toMatch(/^TTL 80 ms is shorter than the 150 ms critical section/);
  });

  it('EXPIRE in seconds gives a lock taken without TTL its TTL: a crash then is no lock left forever', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX'], 'OK')
      .at(2).redis(1, 1, 'expire', ['lock', '1'], 1)
      .at(10).crash(1);
    for (let t = 100; t <= 900; t += 200) h.at(t).redis(2, 1, 'SET', ['lock', 'b', 'NX'], null);
    h.at(1100).redis(2, 1, 'SET', ['lock', 'b', 'NX'], 'OK');
    const verdict = check(h.build(), { livenessBoundMs: 500 });
    expect(kinds(verdict)).not.toContain('lock-without-ttl-never-frees');
    expect(verdict.checks.liveness.valid).toBe('held');
  });

  it('PEXPIREAT gives a TTL we cannot date: not a lock left without TTL', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX'], 'OK')
      .at(2).redis(1, 1, 'PEXPIREAT', ['lock', '1717200000000'], 1)
      .at(10).crash(1);
    expect(kinds(check(h.build()))).not.toContain('lock-without-ttl-never-frees');
  });

  it('GETDEL of another client\'s lock is the same bug as a plain DEL', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'token-a', 'NX', 'PX', '100'], 'OK')
      .at(2).enter(1)
      .at(110).redis(2, 1, 'SET', ['lock', 'token-b', 'NX', 'PX', '100'], 'OK').mark('b-set')
      .at(112).enter(2)
      .at(152).exit(1)
      .at(153).redis(1, 1, 'getdel', ['lock'], 'token-b').mark('a-getdel')
      .at(160).exit(2);
    const diagnosis = find(check(h.build()), 'release-deleted-foreign-lock');
    expect(diagnosis?.message).toMatch(/^Client 1's release \(a GETDEL\) deleted 'lock' on Node 1 while it held Client 2's token/);
    expect(diagnosis?.seqs).toContain(h.seq('b-set'));
    expect(diagnosis?.seqs).toContain(h.seq('a-getdel'));
  });

  it('GETDEL of its own lock names nothing, and releases it', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX'], 'OK')
      .at(10).redis(1, 1, 'GETDEL', ['lock'], 'a')
      .at(20).crash(1);
    // Released before the crash: no key left without TTL.
    const verdict = check(h.build());
    expect(kinds(verdict)).not.toContain('release-deleted-foreign-lock');
    expect(kinds(verdict)).not.toContain('lock-without-ttl-never-frees');
  });

  it('a GETDEL whose reply is not what the model holds ran before a SET recorded first: nothing proven', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '10000'], 'OK')
      .at(10).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '10000'], 'OK')
      .at(11).redis(1, 1, 'GETDEL', ['lock'], 'a');
    expect(kinds(check(h.build()))).not.toContain('release-deleted-foreign-lock');
  });

  it('SET … NX GET answers the old value: nil is a lock taken, a value a lock refused', () => {
    const taken = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '1000', 'GET'], null);
    expect(check(taken.build()).stats.lockAcquires).toBe(1);
    const refused = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '1000'], 'OK').at(5).redis(2, 1, 'set', ['lock', 'b', 'nx', 'px', '1000', 'get'], 'a');
    expect(check(refused.build()).stats.lockAcquires).toBe(1);
  });

  it('PSETEX and SETEX set a TTL (on a lock key)', () => {
    for (const [command, amount] of [['PSETEX', '80'], ['setex', '0.08']] as const) {
      const h = history().at(0).redis(1, 1, command, ['lock', amount, 'a'], 'OK').at(2).enter(1).at(152).exit(1);
      expect(kinds(check(h.build(), { lockKeys: ['lock'] }))).toContain('ttl-shorter-than-job');
    }
  });

  it('SET KEEPTTL on an expired key leaves it without TTL (a node that loses it then forgot a live lock)', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '100'], 'OK')
      .at(500).redis(1, 1, 'SET', ['lock', 'a2', 'KEEPTTL'], 'OK')
      .at(600).node(1, 'down')
      .at(700).node(1, 'up', 'none')
      .at(800).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '100'], 'OK');
    expect(kinds(check(h.build()))).toContain('restart-without-persistence');
  });
});
