import { describe, expect, it } from 'vitest';
import { IncrementalChecker, check, mergeValidity } from '@/lib/checker';
import type { Validity } from '@/lib/checker';
import { history } from './helpers/history-builder';

describe('checker: merging verdicts', () => {
  it('violated beats unknown beats held, in any order', () => {
    const all: Validity[] = ['held', 'unknown', 'violated'];
    expect(mergeValidity()).toBe('held');
    expect(mergeValidity('held', 'held')).toBe('held');
    for (const order of [all, [...all].reverse(), ['unknown', 'violated', 'held'] as Validity[]]) {
      expect(mergeValidity(...order)).toBe('violated');
    }
    expect(mergeValidity('held', 'unknown')).toBe('unknown');
    expect(mergeValidity('unknown', 'held')).toBe('unknown');
  });

  it('overall: an unknown check and a violated one make the run violated', () => {
    // Mutual exclusion unknown (paused holder never resumed), fencing violated.
    const h = history()
      .at(0).enter(1).at(10).pause(1).at(100).enter(2).at(150).exit(2)
      .at(200).write(3, 'k', 5, { accepted: true, highest: null })
      .at(210).write(4, 'k', 4, { accepted: true, highest: 5 });
    const verdict = check(h.build());
    expect(verdict.checks['mutual-exclusion'].valid).toBe('unknown');
    expect(verdict.checks.fencing.valid).toBe('violated');
    expect(verdict.valid).toBe('violated');
    expect(verdict.counterExample?.check).toBe('fencing');
  });

  it('overall: the earliest proven violation is the counter-example', () => {
    const h = history()
      .at(0).write(3, 'k', 5, { accepted: true, highest: null })
      .at(10).write(4, 'k', 4, { accepted: true, highest: 5 })
      .at(20).enter(1).at(30).enter(2).at(40).exit(1).exit(2);
    const verdict = check(h.build());
    expect(verdict.checks['mutual-exclusion'].valid).toBe('violated');
    expect(verdict.counterExample?.check).toBe('fencing');
  });

  it('overall: unknown when no check had anything to look at', () => {
    const verdict = check(history().at(0).start(1).at(5).log(1).build());
    expect(verdict.valid).toBe('unknown');
    expect(Object.values(verdict.checks).every((c) => !c.applicable)).toBe(true);
  });
});

describe('checker: incremental', () => {
  /** Kleppmann's pause: Client 1's lock expires while it sleeps inside the job; Client 2 takes it. */
  const story = (fenced: boolean) => {
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 100, votes: [1, 2, 3], of: 5 })
      .at(1).enter(1).at(50).pause(1)
      .at(150).acquired(2, 'lock', { ttlMs: 100, votes: [1, 2, 3], of: 5 })
      .at(151).enter(2).at(160).write(2, 'k', fenced ? 2 : null, { accepted: true, highest: fenced ? 1 : null })
      .at(170).exit(2).at(300).resume(1)
      .at(301).write(1, 'k', fenced ? 1 : null, { accepted: !fenced, highest: fenced ? 2 : null })
      .at(302).exit(1);
    return h.build();
  };

  it('gives the same verdict fed in batches as in one go, and ignores re-sent events', () => {
    const events = story(false);
    const whole = check(events);
    const checker = new IncrementalChecker();
    for (let i = 0; i < events.length; i += 3) checker.push(events.slice(Math.max(0, i - 2), i + 3));
    expect(checker.size).toBe(events.length);
    expect(checker.verdict({ final: true })).toEqual(whole);
    expect(whole.valid).toBe('violated');
    expect(whole.checks['mutual-exclusion'].valid).toBe('violated');
    expect(whole.checks.fencing.valid).toBe('violated');
    expect(whole.diagnoses.map((d) => d.kind)).toContain('pause-beyond-validity');
  });

  it('the same pause against the fenced store: the overlap is excused, the run holds', () => {
    const verdict = check(story(true));
    expect(verdict.valid).toBe('held');
    expect(verdict.checks['mutual-exclusion'].valid).toBe('held');
    expect(verdict.checks['mutual-exclusion'].notes.join(' ')).toContain('every store write they made carried a fencing token');
    expect(verdict.checks.fencing.valid).toBe('held');
    expect(verdict.savedByFencing.count).toBe(1);
    // The diagnosis still names what would have broken without fencing.
    expect(verdict.diagnoses.map((d) => d.kind)).toContain('pause-beyond-validity');
  });

  it('answers mid-run: pending while the holder sleeps, running once it wakes, decided when both are out', () => {
    const events = story(false);
    const checker = new IncrementalChecker();
    const resumeAt = events.findIndex((e) => e.type === 'client' && e.event === 'resume');
    checker.push(events.slice(0, resumeAt));
    const before = checker.verdict();
    expect(before.final).toBe(false);
    expect(before.checks['mutual-exclusion'].valid).toBe('unknown');
    expect(before.checks['mutual-exclusion'].counterExample?.message).toContain('has not resumed');
    checker.push(events.slice(resumeAt, resumeAt + 1));
    expect(checker.verdict().checks['mutual-exclusion'].counterExample?.message).toContain('both are still running');
    checker.push(events.slice(resumeAt + 1));
    expect(checker.verdict().checks['mutual-exclusion'].valid).toBe('violated');
    // An earlier verdict is a snapshot: later events do not change it.
    expect(before.checks['mutual-exclusion'].valid).toBe('unknown');
  });

  it('a final verdict decides overlaps whose sections never ended', () => {
    const h = history().at(0).enter(1).at(10).enter(2);
    expect(check(h.build(), { final: false }).checks['mutual-exclusion'].valid).toBe('unknown');
    expect(check(h.build()).checks['mutual-exclusion'].valid).toBe('violated');
  });

  it('produces JSON-safe verdicts', () => {
    const verdict = check(story(true));
    expect(JSON.parse(JSON.stringify(verdict))).toEqual(verdict);
  });
});
