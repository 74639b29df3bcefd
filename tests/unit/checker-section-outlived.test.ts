import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import type { DiagnosisKind, Verdict } from '@/lib/checker';
import { EXTEND_SCRIPT, history } from './helpers/history-builder';

const kinds = (verdict: Verdict): DiagnosisKind[] => verdict.diagnoses.map((d) => d.kind);
const find = (verdict: Verdict, kind: DiagnosisKind) => verdict.diagnoses.find((d) => d.kind === kind);

describe('checker: a critical section that outlives its lock', () => {
  it('a job still running after the redlock validity ran out, nobody else taking the lock', () => {
    // 500 ms of rendering before the section, then 1.8 s of work: shorter than the TTL, longer than what was left.
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 2100, validityMs: 2000 }).mark('acq')
      .at(500).enter(1, 'send').mark('in')
      .at(2300).exit(1, 'send').mark('out');
    const verdict = check(h.build());
    const diagnosis = find(verdict, 'section-outlived-lock');
    expect(diagnosis?.message).toBe(
      "Client 1's job 'send' ran until 2.30 s but its lock 'lock' was valid only until 2.00 s: for 300 ms nothing kept another client out. " +
        "Finish within the lock's validity: extend the lock while the job runs, or check the time left before you start.",
    );
    expect(diagnosis?.check).toBe('mutual-exclusion');
    expect(diagnosis?.seqs).toEqual(['acq', 'in', 'out'].map((m) => h.seq(m)));
    expect(diagnosis?.window).toEqual({ from: 2000, to: 2300 });
    expect(kinds(verdict)).not.toContain('ttl-shorter-than-job');
  });

  it('messages count from the run\'s start', () => {
    const h = history().at(1000).acquired(1, 'lock', { ttlMs: 2100, validityMs: 2000 }).at(1500).enter(1).at(3300).exit(1);
    expect(find(check(h.build(), { timeOrigin: 1000 }), 'section-outlived-lock')?.message).toMatch(/ran until 2\.30 s but its lock 'lock' was valid only until 2\.00 s/);
  });

  it('a section entered after the validity ended says so', () => {
    const h = history().at(0).acquired(1, 'lock', { ttlMs: 1000, validityMs: 990 }).at(1200).enter(1).at(1300).exit(1);
    expect(find(check(h.build()), 'section-outlived-lock')?.message).toMatch(
      /^Client 1 entered job 'job' at 1\.20 s, after its lock 'lock' had stopped being valid at 990 ms, and ran until 1\.30 s: for 100 ms nothing kept another client out/,
    );
  });

  it('a watchdog whose renewals stopped: valid until the last renewal\'s TTL', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '900'], 'OK')
      .at(2).enter(1)
      .at(299).redis(1, 1, 'EVAL', [EXTEND_SCRIPT, '1', 'lock', 'a', '900'], 1)
      .at(1500).exit(1);
    expect(find(check(h.build()), 'section-outlived-lock')?.message).toMatch(/^Client 1's job 'job' ran until 1\.50 s but its lock 'lock' was valid only until 1\.20 s: for 300 ms/);
  });

  it('a watchdog whose renewal failed: the failed renewal is named instead (checker-root-causes)', () => {
    const h = history()
      .at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '900'], 'OK')
      .at(2).enter(1)
      .at(299).redis(1, 1, 'EVAL', [EXTEND_SCRIPT, '1', 'lock', 'a', '900'], 1)
      .at(599).redis(1, 1, 'EVAL', [EXTEND_SCRIPT, '1', 'lock', 'a', '900'], null, { phase: 'info', tookMs: 100 })
      .at(1500).exit(1);
    expect(kinds(check(h.build()))).toEqual(['renewal-failed-mid-job']);
  });

  it('not when another client took the lock meanwhile (mutual exclusion says more)', () => {
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 2100, validityMs: 2000 })
      .at(500).enter(1, 'send')
      .at(2150).acquired(2, 'lock', { ttlMs: 2100, validityMs: 2000 })
      .at(2300).exit(1, 'send');
    expect(kinds(check(h.build()))).not.toContain('section-outlived-lock');
  });

  it('not when the expiry is unknown or never (a lock without TTL)', () => {
    const h = history().at(0).redis(1, 1, 'SET', ['lock', 'a', 'NX'], 'OK').at(2).enter(1).at(5000).exit(1);
    expect(kinds(check(h.build()))).not.toContain('section-outlived-lock');
  });

  it('not twice: a TTL shorter than the work, or a pause beyond the validity, already says it', () => {
    const short = history().at(0).acquired(1, 'lock', { ttlMs: 80 }).at(0).enter(1).at(150).exit(1);
    expect(kinds(check(short.build()))).toEqual(['ttl-shorter-than-job']);
    const paused = history()
      .at(0).acquired(1, 'lock', { ttlMs: 1000, validityMs: 1000 })
      .at(0).enter(1)
      .at(10).pause(1)
      .at(1600).resume(1)
      .at(1650).exit(1);
    expect(kinds(check(paused.build()))).toEqual(['pause-beyond-validity']);
  });

  it('not for a section that ends within the validity', () => {
    const h = history().at(0).acquired(1, 'lock', { ttlMs: 2100, validityMs: 2000 }).at(500).enter(1).at(1990).exit(1);
    expect(kinds(check(h.build()))).not.toContain('section-outlived-lock');
  });
});
