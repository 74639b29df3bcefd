import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import type { DiagnosisKind, Verdict } from '@/lib/checker';
import { history } from './helpers/history-builder';

const kinds = (verdict: Verdict): DiagnosisKind[] => verdict.diagnoses.map((d) => d.kind);
const find = (verdict: Verdict, kind: DiagnosisKind) => verdict.diagnoses.find((d) => d.kind === kind);

/** Client 2 keeps trying SETNX from `from` to `to`: with the key stuck it never gets the lock. */
function waits(h: ReturnType<typeof history>, from: number, to: number): void {
  for (let t = from; t <= to; t += 250) h.at(t).redis(2, 1, 'SETNX', ['lock', 'b'], 0);
}

describe('checker: a lock key left without TTL', () => {
  it('(a) SETNX, then a crash before the PEXPIRE: named, and the liveness check says why Client 2 waits forever', () => {
    const h = history().at(300).redis(1, 1, 'SETNX', ['lock', 'a'], 1).mark('setnx').at(812).crash(1).mark('crash');
    waits(h, 900, 4000);
    const verdict = check(h.build(), { livenessBoundMs: 2000 });
    const diagnosis = find(verdict, 'lock-without-ttl-never-frees');
    expect(diagnosis?.message).toBe(
      "Client 1 crashed at 812 ms holding 'lock' (taken at 301 ms), whose key has no TTL: it never frees, so nobody can take the lock again. " +
        'Take the lock and its TTL in one command (SET key token NX PX ms): a PEXPIRE sent after SETNX never comes if the client dies first, and a wrong one leaves no TTL.',
    );
    expect(diagnosis?.seqs).toEqual([h.seq('setnx'), h.seq('crash')]);
    expect(verdict.checks.liveness.valid).toBe('violated');
    expect(verdict.checks.liveness.counterExample?.message).toContain(
      'although its holder Client 1 had crashed at 812 ms without releasing it and its key has no TTL, so it never frees',
    );
  });

  it('(b) SETNX, then a PEXPIRE with its arguments the wrong way round (refused): still no TTL', () => {
    const h = history()
      .at(0).redis(1, 1, 'setnx', ['lock', 'a'], 1)
      .at(2).redis(1, 1, 'pexpire', ['5000', 'lock'], 'ERR value is not an integer or out of range', { phase: 'fail' })
      .at(5).enter(1)
      .at(400).crash(1);
    waits(h, 500, 4000);
    const verdict = check(h.build(), { livenessBoundMs: 2000 });
    expect(find(verdict, 'lock-without-ttl-never-frees')?.message).toMatch(/^Client 1 crashed at 400 ms holding 'lock' \(taken at 1 ms\), whose key has no TTL/);
    expect(verdict.checks.liveness.valid).toBe('violated');
  });

  it('(b) also when the client ends without releasing', () => {
    const h = history()
      .at(0).redis(1, 1, 'SETNX', ['lock', 'a'], 1)
      .at(2).redis(1, 1, 'PEXPIRE', ['a', '5000'], 0)
      .at(400).client(1, 'exit');
    expect(find(check(h.build()), 'lock-without-ttl-never-frees')?.message).toMatch(/^Client 1 ended at 400 ms holding 'lock'/);
  });

  it('(c) PERSIST on a held lock is named at once; the holder\'s crash later starves Client 2', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '1000'], 'OK').mark('set')
      .at(811).redis(1, 1, 'persist', ['lock'], 1).mark('persist')
      .at(900).crash(1);
    waits(h, 1000, 4500);
    const verdict = check(h.build(), { livenessBoundMs: 2000 });
    const named = verdict.diagnoses.filter((d) => d.kind === 'lock-without-ttl-never-frees');
    expect(named).toHaveLength(1);
    expect(named[0]?.message).toBe(
      "Client 1 removed the TTL of its lock 'lock' with PERSIST at 812 ms: the key now never expires, so if Client 1 dies holding it nobody can take the lock again. " +
        'Keep the TTL; to hold the lock longer, renew it with PEXPIRE (after checking your token).',
    );
    expect(named[0]?.seqs).toEqual([h.seq('set'), h.seq('persist')]);
    expect(named[0]?.occurrences).toBe(1);
    expect(verdict.checks.liveness.valid).toBe('violated');
    expect(verdict.checks.liveness.counterExample?.message).toContain('its key has no TTL');
  });

  it('(c) PERSIST by another client names whose lock it was', () => {
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '1000'], 'OK').at(100).redis(2, 1, 'PERSIST', ['lock'], 1);
    expect(find(check(h.build()), 'lock-without-ttl-never-frees')?.message).toMatch(/^Client 2 removed the TTL of Client 1's lock 'lock' with PERSIST at 101 ms/);
  });

  it('a PERSIST that removed nothing (0), or on a key that is no lock, names nothing', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '1000'], 'OK')
      .at(100).redis(1, 1, 'PERSIST', ['lock'], 0)
      .at(110).redis(1, 1, 'SET', ['cache', 'x', 'PX', '1000'], 'OK')
      .at(120).redis(1, 1, 'PERSIST', ['cache'], 1);
    expect(kinds(check(h.build()))).not.toContain('lock-without-ttl-never-frees');
  });

  it('SETNX then a right PEXPIRE, then a crash: the key expires and Client 2 gets the lock', () => {
    const h = history()
      .at(0).redis(1, 1, 'SETNX', ['lock', 'a'], 1)
      .at(2).redis(1, 1, 'PEXPIRE', ['lock', '1000'], 1)
      .at(100).crash(1);
    waits(h, 200, 1000);
    h.at(1100).redis(2, 1, 'SETNX', ['lock', 'b'], 1);
    const verdict = check(h.build(), { livenessBoundMs: 500 });
    expect(kinds(verdict)).not.toContain('lock-without-ttl-never-frees');
    expect(verdict.checks.liveness.valid).toBe('held');
  });
});
