import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import { history } from './helpers/history-builder';

describe('checker: fencing', () => {
  it('holds when tokens only grow, and rejected stale writes count as saved by fencing', () => {
    const h = history()
      .at(0).write(2, 'report', 34, { accepted: true, highest: 33 })
      .at(10).write(1, 'report', 33, { accepted: false, highest: 34 }).mark('rejected');
    const verdict = check(h.build());
    expect(verdict.checks.fencing.valid).toBe('held');
    expect(verdict.savedByFencing).toEqual({ count: 1, seqs: [h.seq('rejected')] });
    expect(verdict.checks.fencing.notes[0]).toBe('1 stale write was rejected by the fenced store: fencing saved it.');
  });

  it('is violated when the store accepts a token not above its highest', () => {
    const h = history()
      .at(0).write(2, 'report', 34, { accepted: true, highest: null })
      .at(10).write(1, 'report', 33, { accepted: true, highest: 34 }).mark('stale');
    const result = check(h.build()).checks.fencing;
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.message).toBe(
      "The store accepted Client 1's write to 'report' at 10 ms with token 33, although it had already accepted token 34: a stale write got through.",
    );
    expect(result.counterExample?.seqs).toContain(h.seq('stale'));
  });

  it('catches a stale accept even when the store misreports its highest', () => {
    const h = history()
      .at(0).write(2, 'k', 34, { accepted: true, highest: null })
      .at(10).write(1, 'k', 20, { accepted: true, highest: null });
    expect(check(h.build()).checks.fencing.valid).toBe('violated');
  });

  it('unfenced: a write from an older session after a newer one wrote is a lost update', () => {
    const h = history()
      .at(0).enter(1).mark('a-in')
      .at(50).write(1, 'report', null, { accepted: true, highest: null })
      .at(100).pause(1)
      .at(1100).enter(2)
      .at(1200).write(2, 'report', null, { accepted: true, highest: null }).mark('b-write')
      .at(1300).exit(2)
      .at(1900).resume(1)
      .at(1950).write(1, 'report', null, { accepted: true, highest: null }).mark('a-write')
      .at(1960).exit(1);
    const result = check(h.build()).checks.fencing;
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.seqs).toEqual([h.seq('b-write'), h.seq('a-write')]);
    expect(result.counterExample?.window).toEqual({ from: 1200, to: 1950 });
    expect(result.counterExample?.message).toContain('Client 1 wrote \'report\' at 1.95 s from a session that began at 0 ms');
  });

  it('unfenced: sessions one after another are fine', () => {
    const h = history()
      .at(0).enter(1).at(10).write(1, 'k', null, { accepted: true, highest: null }).at(20).exit(1)
      .at(30).enter(2).at(40).write(2, 'k', null, { accepted: true, highest: null }).at(50).exit(2)
      .at(60).enter(1).at(70).write(1, 'k', null, { accepted: true, highest: null }).at(80).exit(1);
    expect(check(h.build()).checks.fencing.valid).toBe('held');
  });

  it('unfenced: a write outside any section uses the lock hold as its session', () => {
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 100 })
      .at(200).acquired(2, 'lock', { ttlMs: 100 })
      .at(210).write(2, 'k', null, { accepted: true, highest: null })
      .at(220).write(1, 'k', null, { accepted: true, highest: null });
    expect(check(h.build()).checks.fencing.valid).toBe('violated');
  });

  it('is not applicable without store writes', () => {
    expect(check(history().at(0).enter(1).at(1).exit(1).build()).checks.fencing.applicable).toBe(false);
  });
});
