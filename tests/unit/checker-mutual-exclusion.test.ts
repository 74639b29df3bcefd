import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import { history } from './helpers/history-builder';

describe('checker: mutual exclusion', () => {
  it('holds when critical sections follow one another', () => {
    const h = history().at(0).enter(1).at(100).exit(1).at(100).enter(2).at(200).exit(2);
    const verdict = check(h.build());
    expect(verdict.checks['mutual-exclusion'].valid).toBe('held');
    expect(verdict.checks['mutual-exclusion'].summary).toContain('2 critical sections');
    expect(verdict.valid).toBe('held');
  });

  it('is violated when a second client enters while the first is inside, with the overlap as a band', () => {
    const h = history()
      .at(1000).enter(1, 'report').mark('a-in')
      .at(1240).enter(2, 'report').mark('b-in')
      .at(1500).exit(2, 'report').mark('b-out')
      .at(2650).exit(1, 'report').mark('a-out');
    const result = check(h.build()).checks['mutual-exclusion'];
    expect(result.valid).toBe('violated');
    expect(result.violations).toBe(1);
    const example = result.counterExample;
    expect(example?.message).toBe(
      "Client 2 entered job 'report' at 1.24 s while Client 1 was still inside it (entered at 1.00 s, exited at 2.65 s): two clients in the critical section at once.",
    );
    expect(example?.seqs).toEqual([h.seq('a-in'), h.seq('b-in'), h.seq('b-out'), h.seq('a-out')]);
    expect(example?.window).toEqual({ from: 1240, to: 1500 });
    expect(example?.clients).toEqual([1, 2]);
  });

  it("writes its times from the run's start when told where the run began; windows stay on the lab clock", () => {
    const h = history().at(10_000).enter(1, 'report').at(10_600).enter(2, 'report').at(10_800).exit(2, 'report').at(11_000).exit(1, 'report');
    const result = check(h.build(), { timeOrigin: 10_000 }).checks['mutual-exclusion'];
    expect(result.counterExample?.message).toBe(
      "Client 2 entered job 'report' at 600 ms while Client 1 was still inside it (entered at 0 ms, exited at 1.00 s): two clients in the critical section at once.",
    );
    expect(result.counterExample?.window).toEqual({ from: 10_600, to: 10_800 });
  });

  it('checks each job on its own', () => {
    const h = history().at(0).enter(1, 'a').at(10).enter(2, 'b').at(50).exit(1, 'a').exit(2, 'b');
    expect(check(h.build()).checks['mutual-exclusion'].valid).toBe('held');
  });

  it('does not count a client overlapping itself', () => {
    const h = history().at(0).enter(1, 'tick').at(10).push({ type: 'job', phase: 'enter', client: 1, job: 'tick', execution: 2 });
    expect(check(h.build()).checks['mutual-exclusion'].valid).toBe('held');
  });

  it('a crash cuts the section: a client entering after the crash is not an overlap', () => {
    const h = history().at(0).enter(1).at(50).crash(1).at(60).enter(2).at(100).exit(2);
    const verdict = check(h.build(), { expectedExecutions: 1 });
    expect(verdict.checks['mutual-exclusion'].valid).toBe('held');
    // …but the crashed execution may have had its effect, so "exactly once" is unknown.
    expect(verdict.checks.duplicates.valid).toBe('unknown');
  });

  it('a client entering before the crash overlaps the crashed one', () => {
    const h = history().at(0).enter(1).at(20).enter(2).at(50).crash(1).at(100).exit(2);
    const result = check(h.build()).checks['mutual-exclusion'];
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.message).toContain('cut short by its crash at 50 ms');
    expect(result.counterExample?.window).toEqual({ from: 20, to: 50 });
  });

  it('a paused holder that resumes inside the job proves the overlap (Kleppmann)', () => {
    const h = history()
      .at(0).enter(1).mark('a-in')
      .at(100).pause(1).mark('pause')
      .at(1100).enter(2).mark('b-in')
      .at(1300).exit(2).mark('b-out')
      .at(1900).resume(1).mark('resume')
      .at(1950).exit(1).mark('a-out');
    const result = check(h.build()).checks['mutual-exclusion'];
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.message).toContain('was paused inside it');
    expect(result.counterExample?.message).toContain('resumed at 1.90 s still inside');
    expect(result.counterExample?.seqs).toEqual(['a-in', 'pause', 'b-in', 'b-out', 'resume', 'a-out'].map((m) => h.seq(m)));
  });

  it('a paused holder that crashes without acting again leaves the overlap indeterminate', () => {
    const h = history().at(0).enter(1).at(100).pause(1).at(1100).enter(2).at(1300).exit(2).at(1500).crash(1);
    const result = check(h.build()).checks['mutual-exclusion'];
    expect(result.valid).toBe('unknown');
    expect(result.indeterminate).toBe(1);
    expect(result.counterExample?.message).toContain('crashed at 1.50 s without acting again');
  });

  it('a paused holder never resumed by the end of the history is unknown, not held', () => {
    const h = history().at(0).enter(1).at(100).pause(1).at(1100).enter(2).at(1300).exit(2);
    const verdict = check(h.build());
    expect(verdict.checks['mutual-exclusion'].valid).toBe('unknown');
    expect(verdict.valid).toBe('unknown');
    expect(verdict.checks['mutual-exclusion'].notes[0]).toContain('1 critical section was still open');
  });

  it('counts a pause from the nemesis only once, with the sandbox event', () => {
    const h = history()
      .at(0).enter(1)
      .at(100).push({ type: 'nemesis', op: 'client-pause', phase: 'ok', target: 'Client 1', client: 1, args: {} })
      .at(101).pause(1)
      .at(500).enter(2).at(600).exit(2)
      .at(700).resume(1)
      .at(701).push({ type: 'nemesis', op: 'client-resume', phase: 'ok', target: 'Client 1', client: 1, args: {} })
      .at(800).exit(1);
    const result = check(h.build()).checks['mutual-exclusion'];
    expect(result.valid).toBe('violated');
    expect(result.violations).toBe(1);
  });

  it('an enter without exit at the end leaves a running holder overlapping a later entrant', () => {
    const h = history().at(0).enter(1).at(10).log(1).at(50).enter(2).at(60).exit(2);
    const result = check(h.build()).checks['mutual-exclusion'];
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.message).toContain('still inside');
    expect(result.counterExample?.window).toEqual({ from: 50, to: 60 });
  });

  it('is not applicable when no job ran, and unknown if required', () => {
    const h = history().at(0).start(1);
    expect(check(h.build()).checks['mutual-exclusion'].applicable).toBe(false);
    const required = check(h.build(), { required: ['mutual-exclusion'] });
    expect(required.checks['mutual-exclusion'].valid).toBe('unknown');
    expect(required.valid).toBe('unknown');
  });
});
