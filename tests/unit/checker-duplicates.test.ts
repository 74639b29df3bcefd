import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import { history } from './helpers/history-builder';

describe('checker: duplicate executions', () => {
  it('is violated when a job expected once ran twice, even without overlap', () => {
    const h = history()
      .at(100).enter(1, 'report').mark('a-in').at(200).exit(1, 'report').mark('a-out')
      .at(1200).enter(3, 'report').mark('b-in').at(1300).exit(3, 'report').mark('b-out');
    const verdict = check(h.build(), { expectedExecutions: { report: 1 } });
    const result = verdict.checks.duplicates;
    expect(result.valid).toBe('violated');
    expect(result.violations).toBe(1);
    expect(result.counterExample?.message).toBe("Job 'report' ran twice, expected once: Client 1 at 100 ms, Client 3 at 1.20 s.");
    expect(result.counterExample?.seqs).toEqual(['a-in', 'a-out', 'b-in', 'b-out'].map((m) => h.seq(m)));
    expect(verdict.checks['mutual-exclusion'].valid).toBe('held');
    expect(verdict.valid).toBe('violated');
    expect(verdict.stats.duplicateRate).toBe(0.5);
  });

  it('holds at the expected count and is not applicable without an expectation', () => {
    const h = history().at(0).enter(1, 'report').at(10).exit(1, 'report').at(20).enter(2, 'other').at(30).exit(2, 'other');
    const verdict = check(h.build(), { expectedExecutions: { report: 1 } });
    expect(verdict.checks.duplicates.valid).toBe('held');
    expect(verdict.stats.jobs.find((j) => j.job === 'other')?.expected).toBeNull();
    expect(check(h.build()).checks.duplicates.applicable).toBe(false);
  });

  it('an execution still open at the end of a final history is of unknown effect', () => {
    const h = history().at(0).enter(1).at(10).exit(1).at(20).enter(2);
    expect(check(h.build(), { expectedExecutions: 1 }).checks.duplicates.valid).toBe('unknown');
    // While the run goes on, it is simply in progress.
    expect(check(h.build(), { expectedExecutions: 1, final: false }).checks.duplicates.valid).toBe('held');
  });

  it('counts per run', () => {
    const h = history();
    h.runId = 'r1';
    h.at(0).enter(1).at(10).exit(1);
    h.runId = 'r2';
    h.at(100).push({ type: 'job', phase: 'enter', client: 1, job: 'job', execution: 1 }).at(110).push({ type: 'job', phase: 'exit', client: 1, job: 'job', execution: 1 });
    const verdict = check(h.build(), { expectedExecutions: 1 });
    expect(verdict.checks.duplicates.valid).toBe('held');
    expect(verdict.stats.jobs).toHaveLength(2);
  });

  it('notes a job that ran fewer times than expected', () => {
    const h = history().at(0).enter(1).at(10).exit(1);
    const result = check(h.build(), { expectedExecutions: 2 }).checks.duplicates;
    expect(result.valid).toBe('held');
    expect(result.notes).toEqual(["Job 'job' completed 1 of 2 expected executions."]);
  });
});
