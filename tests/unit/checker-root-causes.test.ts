/**
 * The diagnoses each lesson's "Break it" is judged by (lessons 4, 5, 6, 8), one diagnosis per cause however
 * many clients it hurt, the words that fit the program (no "expired" for a lock without TTL, no "fence" for a
 * program that fences), and which diagnosis is the root cause when several are proven.
 */
import { describe, expect, it } from 'vitest';
import { check, rootCause, unmetExpectation } from '@/lib/checker';
import type { DiagnosisKind, Verdict } from '@/lib/checker';
import { history } from './helpers/history-builder';
import type { RunEnded } from '@/lib/run';
import { failureReason } from '@/server/grading/judge';

const kinds = (verdict: Verdict): DiagnosisKind[] => verdict.diagnoses.map((d) => d.kind);
const find = (verdict: Verdict, kind: DiagnosisKind) => verdict.diagnoses.find((d) => d.kind === kind);

describe('checker: the diagnosis of each break', () => {
  it('a failover to a replica that never got the lock (lesson 4)', () => {
    const h = history()
      .at(0).start(1).start(2)
      .at(100).redis(1, 1, 'SET', ['lock', 'a', 'PX', '5000', 'NX'], 'OK')
      .at(102).enter(1, 'send')
      .at(700).node(1, 'down')
      .at(740).push({ type: 'node', node: 2, state: 'up', role: 'master', persistence: 'none', reason: 'promoted to master (REPLICAOF NO ONE)' }).mark('promoted')
      .at(800).redis(2, 2, 'SET', ['lock', 'b', 'PX', '5000', 'NX'], 'OK').mark('regrant')
      .at(802).enter(2, 'send')
      .at(2100).exit(1, 'send')
      .at(2800).exit(2, 'send');
    const verdict = check(h.build());
    expect(verdict.checks['mutual-exclusion'].valid).toBe('violated');
    const diagnosis = find(verdict, 'failover-lost-lock');
    expect(diagnosis?.message).toMatch(/^Node 2 was promoted to master at 740 ms without Client 1's lock 'lock' \(taken on Node 1 at 101 ms, 4\.\d+ s left\)/);
    expect(diagnosis?.message).toContain('WAIT');
    expect(diagnosis?.clients).toEqual([1, 2]);
    expect(rootCause(verdict)?.kind).toBe('failover-lost-lock');
  });

  it('no failover diagnosis when the promoted node refuses the lock (it had been replicated)', () => {
    const h = history()
      .at(100).redis(1, 1, 'SET', ['lock', 'a', 'PX', '5000', 'NX'], 'OK')
      .at(700).node(1, 'down')
      .at(740).push({ type: 'node', node: 2, state: 'up', role: 'master', persistence: 'none', reason: 'promoted to master (REPLICAOF NO ONE)' })
      .at(800).redis(2, 2, 'SET', ['lock', 'b', 'PX', '5000', 'NX'], null);
    expect(kinds(check(h.build()))).not.toContain('failover-lost-lock');
  });

  it('a quorum that is not a majority: two clients lock disjoint sides of a split (lesson 5)', () => {
    const h = history().at(0).start(1).start(2);
    for (const node of [1, 2]) h.at(10).redis(1, node, 'SET', ['lock', 'a', 'PX', '3000', 'NX'], 'OK');
    for (const node of [3, 4, 5]) h.at(12).redis(2, node, 'SET', ['lock', 'b', 'PX', '3000', 'NX'], 'OK');
    h.at(20).enter(1, 'send').at(22).enter(2, 'send').at(1020).exit(1, 'send').at(1022).exit(2, 'send');
    const verdict = check(h.build(), { nodes: 5 });
    const diagnosis = find(verdict, 'quorum-not-majority');
    expect(diagnosis?.message).toBe(
      "Client 1 counted 'lock' as its lock with 2 of 5 nodes (Node 1, Node 2) while Client 2 held it on Node 3, Node 4, Node 5: " +
        '2 is not a majority of 5, so both sides of a split can lock. A quorum must be more than half: ⌊5/2⌋ + 1 = 3.',
    );
    expect(rootCause(verdict)?.kind).toBe('quorum-not-majority');
  });

  it('no quorum diagnosis for single-node holds on two nodes (a lost lock, not a vote count)', () => {
    const h = history()
      .at(10).redis(1, 1, 'SET', ['lock', 'a', 'PX', '3000', 'NX'], 'OK').at(12).redis(2, 2, 'SET', ['lock', 'b', 'PX', '3000', 'NX'], 'OK')
      .at(20).enter(1).at(22).enter(2).at(500).exit(1).at(502).exit(2);
    expect(kinds(check(h.build(), { nodes: 2 }))).not.toContain('quorum-not-majority');
  });

  it("a node's clock jump expires a live lock early, and the node grants it again (lesson 6)", () => {
    const h = history().at(0).start(1).start(2);
    for (const node of [1, 2, 3]) h.at(10).redis(1, node, 'SET', ['lock', 'a', 'PX', '2000', 'NX'], 'OK');
    h.at(20).enter(1, 'send')
      .at(300).push({ type: 'nemesis', op: 'node-clock-jump', phase: 'ok', target: 'Node 3', node: 3, args: { jumpMs: 60000 } });
    for (const node of [3, 4, 5]) h.at(400).redis(2, node, 'SET', ['lock', 'b', 'PX', '2000', 'NX'], 'OK');
    h.at(410).enter(2, 'send').at(900).exit(1, 'send').at(1000).exit(2, 'send');
    const verdict = check(h.build(), { nodes: 5 });
    const diagnosis = find(verdict, 'clock-jump-expired-lock');
    expect(diagnosis?.message).toMatch(/^Node 3's clock jumped 60(\.0)? s forward at 300 ms, which expired Client 1's lock 'lock' on it 1\.\d+ s early; Node 3 then granted it to Client 2 at 401 ms/);
    expect(kinds(verdict)).not.toContain('quorum-not-majority');
    expect(rootCause(verdict)?.kind).toBe('clock-jump-expired-lock');
  });

  it('a job past its count that ran without any lock (lesson 8), and the headline count of duplicates', () => {
    const h = history();
    for (const c of [1, 2, 3, 4, 5]) h.at(c).start(c);
    for (const c of [1, 2, 3, 4, 5]) h.at(100 + c).enter(c, 'daily-report');
    for (const c of [1, 2, 3, 4, 5]) h.at(400 + c).exit(c, 'daily-report');
    const verdict = check(h.build(), { expectedExecutions: { 'daily-report': 1 } });
    expect(verdict.checks.duplicates.violations).toBe(4);
    const diagnosis = find(verdict, 'job-without-lock');
    expect(diagnosis?.message).toMatch(/^Client \d ran job 'daily-report' at 10\d ms without holding any lock/);
    expect(verdict.diagnoses.filter((d) => d.kind === 'job-without-lock')).toHaveLength(1);
    expect(rootCause(verdict)?.kind).toBe('job-without-lock');
  });

  it('no lock diagnosis for a duplicate run that held a lock', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'PX', '1000', 'NX'], 'OK').at(2).enter(1, 'r').at(50).exit(1, 'r').at(51).redis(1, 1, 'DEL', ['lock'], 1)
      .at(60).redis(2, 1, 'SET', ['lock', 'b', 'PX', '1000', 'NX'], 'OK').at(62).enter(2, 'r').at(90).exit(2, 'r');
    const verdict = check(h.build(), { expectedExecutions: 1 });
    expect(verdict.checks.duplicates.valid).toBe('violated');
    expect(kinds(verdict)).not.toContain('job-without-lock');
  });

  it('a done-record that reached the store after the lock was taken again names who ran when and when the write arrived (an un-awaited write, lesson 8), and the grader says that, not the bare count', () => {
    const store = (client: number, key: string) => ({ type: 'store' as const, client, key, value: `Client ${client}`, token: null, accepted: true, highest: null });
    const h = history()
      .at(0).start(1).start(2)
      .at(10).redis(1, 1, 'SET', ['lock', 'a', 'PX', '5000', 'NX'], 'OK').at(12).enter(1, 'daily-report').at(312).exit(1, 'daily-report')
      .at(313).redis(1, 1, 'DEL', ['lock'], 1)
      .at(320).redis(2, 1, 'SET', ['lock', 'b', 'PX', '5000', 'NX'], 'OK').at(330).enter(2, 'daily-report')
      .at(340).push(store(1, 'report-done:2024-06-01'))
      .at(630).exit(2, 'daily-report').at(640).push(store(2, 'report-done:2024-06-01'));
    const verdict = check(h.build(), { expectedExecutions: { 'daily-report': 1 } });
    expect(verdict.checks.duplicates.valid).toBe('violated');
    const diagnosis = find(verdict, 'record-after-lock');
    expect(diagnosis?.message).toBe(
      "Client 1 finished job 'daily-report' at 312 ms, but its write of 'report-done:2024-06-01' reached the store only at 340 ms, after Client 2 had been granted the lock at 321 ms and started 'daily-report' again at 330 ms: the record that the job had run came too late to stop it. Store the record, and wait for the store's answer, before the lock is given back.",
    );
    expect(diagnosis?.message).not.toMatch(/fenc/i);
    expect(kinds(verdict)).not.toContain('job-without-lock');
    expect(rootCause(verdict)?.kind).toBe('record-after-lock');
    const ended = { runId: 'r', outcome: { status: 'completed', clients: [] }, verdict } as unknown as RunEnded;
    expect(failureReason(ended, 1)?.message).toBe(diagnosis?.message);
  });

  it('no late-record diagnosis when the record was stored before the lock was taken again', () => {
    const store = { type: 'store' as const, client: 1, key: 'done', value: 'x', token: null, accepted: true, highest: null };
    const h = history()
      .at(0).start(1).start(2)
      .at(10).redis(1, 1, 'SET', ['lock', 'a', 'PX', '5000', 'NX'], 'OK').at(12).enter(1, 'r').at(312).exit(1, 'r')
      .at(315).push(store).at(316).redis(1, 1, 'DEL', ['lock'], 1)
      .at(320).redis(2, 1, 'SET', ['lock', 'b', 'PX', '5000', 'NX'], 'OK').at(330).enter(2, 'r').at(630).exit(2, 'r');
    const verdict = check(h.build(), { expectedExecutions: { r: 1 } });
    expect(verdict.checks.duplicates.valid).toBe('violated');
    expect(kinds(verdict)).not.toContain('record-after-lock');
  });
});

describe('checker: one diagnosis per cause, in words that fit', () => {
  it('a TTL too short for the job is one diagnosis, however many clients hit it (lesson 3)', () => {
    const h = history();
    for (const [c, start] of [[1, 0], [2, 200], [3, 400]] as const) {
      h.at(start).redis(c, 1, 'SET', ['lock', `t${c}`, 'NX', 'PX', '100'], 'OK').at(start + 2).enter(c).at(start + 190).exit(c);
    }
    const verdict = check(h.build());
    const ttl = verdict.diagnoses.filter((d) => d.kind === 'ttl-shorter-than-job');
    expect(ttl).toHaveLength(1);
    expect(ttl[0]?.occurrences).toBe(3);
    expect(ttl[0]?.clients).toEqual([1, 2, 3]);
  });

  it('a check-then-set race is one diagnosis for the key, and it is the root cause before the foreign delete it leads to (lesson 1)', () => {
    const h = history()
      .at(0).redis(1, 1, 'GET', ['lock'], null).redis(2, 1, 'GET', ['lock'], null).redis(3, 1, 'GET', ['lock'], null)
      .at(5).redis(1, 1, 'SET', ['lock', 'a'], 'OK').redis(2, 1, 'SET', ['lock', 'b'], 'OK').redis(3, 1, 'SET', ['lock', 'c'], 'OK')
      .at(10).enter(1).enter(2).enter(3)
      .at(300).exit(1).redis(1, 1, 'DEL', ['lock'], 1)
      .at(302).exit(2).exit(3);
    const verdict = check(h.build(), { lockKeys: ['lock'] });
    expect(verdict.diagnoses.filter((d) => d.kind === 'check-then-set-race')).toHaveLength(1);
    const foreign = find(verdict, 'release-deleted-foreign-lock');
    // The DEL's words: its token was overwritten (no TTL here), never "its own lock had expired".
    expect(foreign?.message).toContain('its own token had been overwritten by a SET without NX');
    expect(foreign?.message).not.toContain('expired');
    expect(rootCause(verdict)?.kind).toBe('check-then-set-race');
  });

  it('a root cause proven after its consequence still comes first', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '100'], 'OK').at(2).enter(1)
      .at(110).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '500'], 'OK').at(112).enter(2)
      .at(150).exit(1).redis(1, 1, 'DEL', ['lock'], 1)
      .at(160).redis(3, 1, 'GET', ['lock'], null).at(170).redis(2, 1, 'GET', ['lock'], null)
      .at(171).redis(3, 1, 'SET', ['lock', 'c'], 'OK').at(172).redis(2, 1, 'SET', ['lock', 'b2'], 'OK')
      .at(180).exit(2);
    const verdict = check(h.build());
    expect(verdict.diagnoses.map((d) => d.kind).indexOf('check-then-set-race')).toBeGreaterThan(verdict.diagnoses.map((d) => d.kind).indexOf('release-deleted-foreign-lock'));
    expect(rootCause(verdict)?.kind).toBe('check-then-set-race');
    expect(unmetExpectation(verdict, { verdict: 'violated', diagnosis: 'release-deleted-foreign-lock' })).toMatch(/root cause named is "check-then-set-race"/);
    expect(unmetExpectation(verdict, { verdict: 'violated', diagnosis: 'check-then-set-race' })).toBeNull();
  });

  it('a foreign delete after the releaser\'s TTL ran out says its lock was gone', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '100'], 'OK')
      .at(110).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '500'], 'OK')
      .at(150).redis(1, 1, 'DEL', ['lock'], 1);
    expect(find(check(h.build()), 'release-deleted-foreign-lock')?.message).toContain("its own lock was already gone (expired, or deleted by another client) and Client 2 had taken it");
  });

  it("a pause past the lock's validity points at a validity check, and fencing only as the next lesson", () => {
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 2000, validityMs: 1900 }).at(5).enter(1)
      .at(300).pause(1).at(3800).resume(1).at(3900).exit(1);
    const message = find(check(h.build()), 'pause-beyond-validity')?.message ?? '';
    expect(message).toContain("Check the lock's remaining validity on your own clock just before the side effect");
    expect(message).toContain('fencing tokens (lesson 7)');
    expect(message).not.toMatch(/fence the resource/);
  });

  it('a program that fences is not told to fence', () => {
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 2000, validityMs: 1900 }).at(5).enter(1)
      .at(300).pause(1).at(3800).resume(1)
      .at(3810).write(1, 'invoice', 1, { accepted: false, highest: 2 })
      .at(3900).exit(1);
    const message = find(check(h.build()), 'pause-beyond-validity')?.message ?? '';
    expect(message).toContain("Its store writes carry the lock's fencing token");
    expect(message).not.toMatch(/lesson 7|fence the resource/);
  });

  it('a held verdict has no root cause', () => {
    const h = history().at(0).start(1).at(1).enter(1).at(2).exit(1);
    expect(rootCause(check(h.build()))).toBeNull();
  });
});

describe('checker: a watchdog whose renewals fail (lesson 3, "the extension fails")', () => {
  const EXTEND = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

  it('names the failed renewals, not a TTL "nothing extends"', () => {
    const h = history()
      .at(0).start(1).start(2)
      .at(10).redis(1, 1, 'SET', ['lock', 'a', 'PX', '900', 'NX'], 'OK')
      .at(12).enter(1, 'reindex')
      .at(310).redis(1, 1, 'EVAL', [EXTEND, '1', 'lock', 'a', '900'], null, { phase: 'info', tookMs: 1300 })
      .at(1000).redis(2, 1, 'SET', ['lock', 'b', 'PX', '900', 'NX'], 'OK').at(1002).enter(2, 'reindex')
      .at(1800).exit(2, 'reindex').at(1812).exit(1, 'reindex');
    const verdict = check(h.build());
    expect(kinds(verdict)).not.toContain('ttl-shorter-than-job');
    const diagnosis = find(verdict, 'renewal-failed-mid-job');
    expect(diagnosis?.message).toMatch(/^Client 1's lock 'lock' expired at 911 ms while its job 'reindex' ran until 1\.81 s: its renewals did not get through \(one failed at 1\.61 s/);
    expect(rootCause(verdict)?.kind).toBe('renewal-failed-mid-job');
  });

  it('a watchdog that renews in time names nothing', () => {
    const h = history().at(10).redis(1, 1, 'SET', ['lock', 'a', 'PX', '900', 'NX'], 'OK').at(12).enter(1, 'reindex');
    for (const t of [310, 610, 910, 1210, 1510]) h.at(t).redis(1, 1, 'EVAL', [EXTEND, '1', 'lock', 'a', '900'], 1);
    h.at(1812).exit(1, 'reindex');
    expect(check(h.build()).diagnoses).toEqual([]);
  });
});

describe('checker: the root cause of a failure its diagnosis is not filed under', () => {
  it("a pause before the job that breaks only fencing (lesson 6's GC pause) is still the root cause", () => {
    const h = history()
      .at(0).start(1).start(2)
      .at(10).acquired(1, 'lock', { ttlMs: 2000, validityMs: 1900 })
      .at(300).pause(1)
      .at(2100).acquired(2, 'lock', { ttlMs: 2000, validityMs: 1900 })
      .at(2110).enter(2, 'send').at(2200).write(2, 'invoice', null, { accepted: true, highest: null }).at(2300).exit(2, 'send').released(2, 'lock')
      .at(3800).resume(1)
      .at(3810).enter(1, 'send').at(3900).write(1, 'invoice', null, { accepted: true, highest: null }).at(4000).exit(1, 'send');
    const verdict = check(h.build());
    expect(verdict.checks['mutual-exclusion'].valid).toBe('held');
    expect(verdict.checks.fencing.valid).toBe('violated');
    expect(rootCause(verdict)?.kind).toBe('pause-beyond-validity');
  });
});
