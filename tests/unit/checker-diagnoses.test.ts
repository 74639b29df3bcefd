import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import type { DiagnosisKind, Verdict } from '@/lib/checker';
import { EXTEND_SCRIPT, RELEASE_SCRIPT, history } from './helpers/history-builder';

const kinds = (verdict: Verdict): DiagnosisKind[] => verdict.diagnoses.map((d) => d.kind);
const find = (verdict: Verdict, kind: DiagnosisKind) => verdict.diagnoses.find((d) => d.kind === kind);

describe('checker: diagnoses', () => {
  it('TTL shorter than the critical section, from the LockEvent', () => {
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 80 }).mark('acq')
      .at(0).enter(1, 'report').mark('in')
      .at(150).exit(1, 'report').mark('out');
    const diagnosis = find(check(h.build()), 'ttl-shorter-than-job');
    expect(diagnosis?.message).toMatch(/^TTL 80 ms is shorter than the 150 ms critical section and nothing extends it \(Client 1, job 'report'\)/);
    expect(diagnosis?.seqs).toEqual(['acq', 'in', 'out'].map((m) => h.seq(m)));
    expect(diagnosis?.window).toEqual({ from: 80, to: 150 });
  });

  it('TTL shorter than the critical section, from SET … PX, repeated executions counted once', () => {
    const h = history();
    for (const start of [0, 1000]) {
      h.at(start).redis(1, 1, 'SET', ['lock', `t${start}`, 'NX', 'PX', '80'], 'OK')
        .at(start + 2).enter(1)
        .at(start + 152).exit(1)
        .at(start + 153).redis(1, 1, 'EVAL', [RELEASE_SCRIPT, '1', 'lock', `t${start}`], 0);
    }
    const verdict = check(h.build());
    expect(find(verdict, 'ttl-shorter-than-job')?.message).toContain('TTL 80 ms is shorter than the 150 ms critical section');
    expect(find(verdict, 'ttl-shorter-than-job')?.occurrences).toBe(2);
  });

  it('no TTL diagnosis when a watchdog extends the lock', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '80'], 'OK')
      .at(2).enter(1)
      .at(30).redis(1, 1, 'EVAL', [EXTEND_SCRIPT, '1', 'lock', 'a', '80'], 1)
      .at(60).redis(1, 1, 'EVAL', [EXTEND_SCRIPT, '1', 'lock', 'a', '80'], 1)
      .at(152).exit(1);
    expect(kinds(check(h.build()))).not.toContain('ttl-shorter-than-job');
  });

  it('no TTL diagnosis when the redlock module extends the lock (using() with auto-extension)', () => {
    const h = history().at(0).acquired(1, 'lock', { ttlMs: 80 }).at(1).enter(1).at(50).extended(1, 'lock', { ttlMs: 80 }).at(151).exit(1);
    expect(kinds(check(h.build()))).not.toContain('ttl-shorter-than-job');
  });

  it('a key named in lockKeys is read as a lock even when set without NX', () => {
    const h = history().at(0).redis(1, 1, 'SET', ['mylock', 'a', 'PX', '50'], 'OK').at(2).enter(1).at(102).exit(1);
    expect(kinds(check(h.build()))).not.toContain('ttl-shorter-than-job');
    expect(kinds(check(h.build(), { lockKeys: ['mylock'] }))).toContain('ttl-shorter-than-job');
  });

  it('a plain DEL release after expiry deletes another client\'s lock', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'token-a', 'NX', 'PX', '100'], 'OK')
      .at(2).enter(1)
      .at(110).redis(2, 1, 'SET', ['lock', 'token-b', 'NX', 'PX', '100'], 'OK').mark('b-set')
      .at(112).enter(2)
      .at(152).exit(1)
      .at(153).redis(1, 1, 'DEL', ['lock'], 1).mark('a-del')
      .at(160).exit(2);
    const verdict = check(h.build());
    const diagnosis = find(verdict, 'release-deleted-foreign-lock');
    expect(diagnosis?.message).toMatch(/^Client 1's release \(a plain DEL\) deleted 'lock' on Node 1 while it held Client 2's token/);
    expect(diagnosis?.seqs).toContain(h.seq('b-set'));
    expect(diagnosis?.seqs).toContain(h.seq('a-del'));
    expect(diagnosis?.clients).toEqual([1, 2]);
    expect(verdict.checks['mutual-exclusion'].valid).toBe('violated');
    expect(kinds(verdict)).toContain('ttl-shorter-than-job');
  });

  it('a token-checked release that refuses names nothing', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'token-a', 'NX', 'PX', '100'], 'OK')
      .at(110).redis(2, 1, 'SET', ['lock', 'token-b', 'NX', 'PX', '100'], 'OK')
      .at(153).redis(1, 1, 'EVAL', [RELEASE_SCRIPT, '1', 'lock', 'token-a'], 0);
    expect(kinds(check(h.build()))).not.toContain('release-deleted-foreign-lock');
  });

  it('no release diagnosis from a key whose last SET was indeterminate', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'token-a', 'NX', 'PX', '100'], 'OK')
      .at(110).redis(2, 1, 'SET', ['lock', 'token-b', 'NX', 'PX', '100'], null, { phase: 'info' })
      .at(153).redis(1, 1, 'DEL', ['lock'], 1);
    expect(kinds(check(h.build()))).not.toContain('release-deleted-foreign-lock');
  });

  it('acquired with 2 of 5 votes', () => {
    const h = history().at(0).acquired(1, 'lock', { votes: [1, 2], of: 5, ttlMs: 1000 });
    expect(find(check(h.build()), 'acquired-without-quorum')?.message).toBe(
      "Client 1 acquired 'lock' with 2 of 5 votes (quorum 3): a minority lock, which another client can hold at the same time.",
    );
    const fine = history().at(0).acquired(1, 'lock', { votes: [1, 2, 3], of: 5, ttlMs: 1000 });
    expect(kinds(check(fine.build()))).not.toContain('acquired-without-quorum');
  });

  it('client 1 was paused 1.6 s, longer than its 1.0 s validity', () => {
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 1000, validityMs: 1000, votes: [1, 2, 3, 4, 5] }).mark('acq')
      .at(0).enter(1)
      .at(0).pause(1).mark('pause')
      .at(1100).acquired(2, 'lock', { ttlMs: 1000, validityMs: 1000, votes: [1, 2, 3, 4, 5] })
      .at(1100).enter(2).at(1200).exit(2)
      .at(1600).resume(1).mark('resume')
      .at(1650).exit(1);
    const verdict = check(h.build());
    const diagnosis = find(verdict, 'pause-beyond-validity');
    expect(diagnosis?.message).toMatch(/^Client 1 was paused 1\.6 s, longer than its 1\.0 s validity on 'lock'/);
    expect(diagnosis?.seqs).toEqual(['acq', 'pause', 'resume'].map((m) => h.seq(m)));
    expect(verdict.checks['mutual-exclusion'].valid).toBe('violated');
    // The section was long because of the pause, not the work: no TTL diagnosis.
    expect(kinds(verdict)).not.toContain('ttl-shorter-than-job');
  });

  it('a client that stood frozen at the breakpoint is said as that, never as a pause the learner injected', () => {
    // Client 2 let go alone by its own resume button while Client 1 still stands at the breakpoint.
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 1000, validityMs: 1000, votes: [1, 2, 3, 4, 5] }).mark('acq')
      .at(0).enter(1)
      .at(0).push({ type: 'client', client: 1, event: 'pause', breakpoint: true }).mark('stop')
      .push({ type: 'client', client: 2, event: 'pause', breakpoint: true })
      .at(300).push({ type: 'client', client: 2, event: 'resume', breakpoint: true })
      .at(1100).acquired(2, 'lock', { ttlMs: 1000, validityMs: 1000, votes: [1, 2, 3, 4, 5] })
      .at(1100).enter(2).at(1200).exit(2)
      .at(1600).push({ type: 'client', client: 1, event: 'resume', breakpoint: true }).mark('resume')
      .at(1650).exit(1);
    const diagnosis = find(check(h.build()), 'pause-beyond-validity');
    expect(diagnosis?.message).toMatch(/^Client 1 stood frozen at your breakpoint 1\.6 s, longer than its 1\.0 s validity on 'lock': the nodes' clock kept counting/);
    expect(diagnosis?.message).not.toMatch(/was paused/);
    expect(diagnosis?.seqs).toEqual(['acq', 'stop', 'resume'].map((m) => h.seq(m)));
  });

  it('a pause shorter than what is left of the validity names nothing', () => {
    const h = history().at(0).acquired(1, 'lock', { ttlMs: 1000, validityMs: 990 }).at(100).pause(1).at(500).resume(1);
    expect(kinds(check(h.build()))).not.toContain('pause-beyond-validity');
  });

  it('a node restarted without persistence that grants a live lock again', () => {
    const h = history()
      .at(0).redis(1, 3, 'SET', ['lock', 'a', 'NX', 'PX', '10000'], 'OK')
      .at(100).node(3, 'down')
      .at(200).node(3, 'up', 'none')
      .at(300).redis(2, 3, 'SET', ['lock', 'b', 'NX', 'PX', '10000'], 'OK');
    expect(find(check(h.build()), 'restart-without-persistence')?.message).toMatch(/^Node 3 restarted without persistence while Client 1's lock 'lock' on it had 9\.8 s left, then granted it to Client 2/);
    const persisted = history()
      .at(0).redis(1, 3, 'SET', ['lock', 'a', 'NX', 'PX', '10000'], 'OK')
      .at(100).node(3, 'down').at(200).node(3, 'up', 'aof-always')
      .at(300).redis(2, 3, 'SET', ['lock', 'b', 'NX', 'PX', '10000'], null);
    expect(kinds(check(persisted.build()))).not.toContain('restart-without-persistence');
  });

  it("a failed checked release does not erase the holder's key from the model (restart still diagnosed)", () => {
    const release = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
    const h = history()
      .at(0).redis(1, 3, 'SET', ['lock', 'a', 'NX', 'PX', '10000'], 'OK')
      .at(50).redis(2, 3, 'EVAL', [release, '1', 'lock', 'b'], 0)
      .at(100).node(3, 'down')
      .at(200).node(3, 'up', 'none')
      .at(300).redis(2, 3, 'SET', ['lock', 'b', 'NX', 'PX', '10000'], 'OK');
    expect(kinds(check(h.build()))).toContain('restart-without-persistence');
  });

  it('a checked release recorded after the next SET (completion order) is not a foreign delete', () => {
    const release = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '10000'], 'OK')
      .at(10).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '10000'], 'OK')
      .at(11).redis(1, 1, 'EVAL', [release, '1', 'lock', 'a'], 1);
    expect(kinds(check(h.build()))).not.toContain('release-deleted-foreign-lock');
    const plain = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '100'], 'OK')
      .at(150).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '10000'], 'OK')
      .at(200).redis(1, 1, 'DEL', ['lock'], 1);
    expect(kinds(check(plain.build()))).toContain('release-deleted-foreign-lock');
  });

  it('a lock without TTL whose holder crashed never frees (and starves everyone)', () => {
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX'], 'OK').at(10).crash(1);
    for (let t = 100; t <= 3000; t += 300) h.at(t).redis(2, 1, 'SET', ['lock', 'b', 'NX'], null);
    const verdict = check(h.build(), { livenessBoundMs: 1000 });
    expect(find(verdict, 'lock-without-ttl-never-frees')?.message).toMatch(/^Client 1 crashed at 10 ms holding 'lock' \(taken at 1 ms\), whose key has no TTL/);
    expect(verdict.checks.liveness.valid).toBe('violated');
    expect(verdict.checks.liveness.counterExample?.message).toContain('its holder Client 1 had crashed at 10 ms without releasing it and its key has no TTL');
  });

  it('the GET-then-SET race', () => {
    const h = history()
      .at(0).redis(1, 1, 'GET', ['lock'], null)
      .at(1).redis(2, 1, 'GET', ['lock'], null)
      .at(3).redis(2, 1, 'SET', ['lock', 'b', 'PX', '1000'], 'OK')
      .at(4).redis(1, 1, 'SET', ['lock', 'a', 'PX', '1000'], 'OK');
    expect(find(check(h.build()), 'check-then-set-race')?.message).toMatch(/^Client 1 read 'lock' on Node 1 as free, then SET it without NX after Client 2 had taken it/);
  });
});
