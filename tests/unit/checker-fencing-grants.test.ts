import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import { history } from './helpers/history-builder';

// Fencing compares writes with the grants they come from, not only their tokens (lib/checker/fencing.ts).
describe('checker: fencing tokens must grow with the grants', () => {
  it('a client id as token: the older grant writes last with a bigger token, and the store takes it', () => {
    const h = history()
      .at(200).acquired(2, 'lock', { ttlMs: 1000 })
      .at(200).enter(2, 'send')
      .at(250).pause(2)
      .at(1500).acquired(1, 'lock', { ttlMs: 1000 })
      .at(1500).enter(1, 'send')
      .at(2400).write(1, 'invoice', 1, { accepted: true, highest: null }).mark('newer')
      .at(2450).exit(1, 'send')
      .at(3050).resume(2)
      .at(3100).write(2, 'invoice', 2, { accepted: true, highest: 1 }).mark('stale')
      .at(3150).exit(2, 'send');
    const verdict = check(h.build());
    const result = verdict.checks.fencing;
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.message).toBe(
      "Client 2 wrote 'invoice' at 3.10 s with token 2 from the lock it was granted at 200 ms, after Client 1 had written it at 2.40 s from a lock granted later (at 1.50 s): " +
        'the store took a stale write because the token did not grow with the grants. A fencing token must come from the lock service, one greater for every grant.',
    );
    expect(result.counterExample?.seqs).toEqual([h.seq('newer'), h.seq('stale')]);
    expect(result.counterExample?.window).toEqual({ from: 2400, to: 3100 });
    expect(verdict.valid).toBe('violated');
  });

  it('Date.now() as token on a client whose clock was set back: grant order and token order disagree', () => {
    // A hand-made lock (SET NX PX): the grants are read off the commands.
    const h = history()
      .at(200).redis(1, 1, 'SET', ['lock', 'a', 'NX', 'PX', '1000'], 'OK')
      .at(210).enter(1, 'send')
      .at(220).pause(1)
      .at(1500).redis(2, 1, 'SET', ['lock', 'b', 'NX', 'PX', '1000'], 'OK')
      .at(1510).enter(2, 'send')
      .at(2400).write(2, 'invoice', 1_717_199_991_500, { accepted: true, highest: null })
      .at(2410).exit(2, 'send')
      .at(3000).resume(1)
      .at(3100).write(1, 'invoice', 1_717_200_000_200, { accepted: true, highest: 1_717_199_991_500 })
      .at(3110).exit(1, 'send');
    const result = check(h.build()).checks.fencing;
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.message).toMatch(
      /^Client 1 wrote 'invoice' at 3\.10 s with token 1717200000200 from the lock it was granted at 201 ms, after Client 2 had written it at 2\.40 s from a lock granted later \(at 1\.50 s\)/,
    );
  });

  it('without a lock in the history, the critical sections order the writes', () => {
    const h = history()
      .at(210).enter(1, 'send')
      .at(220).pause(1)
      .at(1510).enter(2, 'send')
      .at(2400).write(2, 'invoice', 5, { accepted: true, highest: null })
      .at(2410).exit(2, 'send')
      .at(3000).resume(1)
      .at(3100).write(1, 'invoice', 9, { accepted: true, highest: 5 })
      .at(3110).exit(1, 'send');
    expect(check(h.build()).checks.fencing.counterExample?.message).toMatch(
      /^Client 1 wrote 'invoice' at 3\.10 s with token 9 from the critical section it entered at 210 ms, after Client 2 had written it at 2\.40 s from a critical section entered later \(at 1\.51 s\)/,
    );
  });

  it('grants order the writes even when the sections entered in the other order (a busy server)', () => {
    // Client 1 is granted first but starts its section late; tokens follow the grants: held.
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 1000 })
      .at(300).acquired(2, 'lock', { ttlMs: 1000 })
      .at(500).enter(2, 'send')
      .at(900).enter(1, 'send')
      .at(1000).write(1, 'invoice', 1, { accepted: true, highest: null })
      .at(1100).write(2, 'invoice', 2, { accepted: true, highest: 1 })
      .at(1200).exit(2, 'send')
      .at(1300).exit(1, 'send');
    expect(check(h.build()).checks.fencing.valid).toBe('held');
  });

  it('holds for a correct history: a token from an INCR right after each grant, writes in grant order, a stale write refused', () => {
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 1000 })
      .at(2).redis(1, 1, 'INCR', ['fencing'], 1)
      .at(10).enter(1, 'send')
      .at(50).write(1, 'invoice', 1, { accepted: true, highest: null })
      .at(100).pause(1)
      .at(1200).acquired(2, 'lock', { ttlMs: 1000 })
      .at(1202).redis(2, 1, 'INCR', ['fencing'], 2)
      .at(1210).enter(2, 'send')
      .at(1300).write(2, 'invoice', 2, { accepted: true, highest: 1 })
      .at(1400).exit(2, 'send')
      .at(1900).resume(1)
      .at(1950).write(1, 'invoice', 1, { accepted: false, highest: 2 }).mark('refused')
      .at(1960).exit(1, 'send')
      .at(2500).acquired(1, 'lock', { ttlMs: 1000 })
      .at(2502).redis(1, 1, 'INCR', ['fencing'], 3)
      .at(2510).enter(1, 'send')
      .at(2550).write(1, 'invoice', 3, { accepted: true, highest: 2 })
      .at(2600).exit(1, 'send');
    const verdict = check(h.build());
    expect(verdict.checks.fencing.valid).toBe('held');
    expect(verdict.savedByFencing).toEqual({ count: 1, seqs: [h.seq('refused')] });
    expect(verdict.valid).toBe('held');
  });

  it('a section that wraps its own acquire is ordered by its grant, not its entry', () => {
    // Client 1 enters first and waits for the lock; Client 2 enters, takes the lock, writes and releases; then Client 1 gets it.
    for (const token of [null, 1] as const) {
      const h = history()
        .at(0).enter(1, 'send')
        .at(100).enter(2, 'send')
        .at(110).acquired(2, 'lock', { ttlMs: 1000 })
        .at(150).write(2, 'k', token, { accepted: true, highest: null })
        .at(200).released(2, 'lock')
        .at(250).exit(2, 'send')
        .at(300).acquired(1, 'lock', { ttlMs: 1000 })
        .at(350).write(1, 'k', token === null ? null : token + 1, { accepted: true, highest: token })
        .at(400).exit(1, 'send');
      expect(check(h.build()).checks.fencing.valid).toBe('held');
    }
  });

  it('an unfenced write after a fenced write from a later grant is a lost update too', () => {
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 100 })
      .at(200).acquired(2, 'lock', { ttlMs: 100 })
      .at(210).write(2, 'k', 7, { accepted: true, highest: null })
      .at(220).write(1, 'k', null, { accepted: true, highest: null });
    expect(check(h.build()).checks.fencing.valid).toBe('violated');
  });

  it('one violation per write: a token the store should have refused is not also reported for its grant', () => {
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 100 })
      .at(200).acquired(2, 'lock', { ttlMs: 100 })
      .at(210).write(2, 'k', 7, { accepted: true, highest: null })
      .at(220).write(1, 'k', 5, { accepted: true, highest: 7 });
    const result = check(h.build()).checks.fencing;
    expect(result.violations).toBe(1);
    expect(result.counterExample?.message).toMatch(/^The store accepted Client 1's write to 'k' at 220 ms with token 5/);
  });
});

// A token source that restarts empty (or a token taken from another counter) hands a later grant a smaller token.
describe('checker: fencing tokens must keep growing across a restart of the token source', () => {
  const restart = (second: number, accepted: boolean) =>
    history()
      .at(0).acquired(1, 'lock', { ttlMs: 1000 })
      .at(2).redis(1, 1, 'INCR', ['fencing'], 5)
      .at(100).write(1, 'invoice', 5, { accepted: true, highest: 4 }).mark('first')
      .at(150).released(1, 'lock')
      .at(300).node(1, 'down')
      .at(400).node(1, 'up')
      .at(600).acquired(2, 'lock', { ttlMs: 1000 })
      .at(602).redis(2, 1, 'INCR', ['fencing'], second)
      .at(700).write(2, 'invoice', second, { accepted, highest: 5 }).mark('second')
      .at(750).released(2, 'lock');

  it('5 → 1 after the restart: the new holder is refused, and both grants are named', () => {
    const h = restart(1, false);
    const verdict = check(h.build());
    const result = verdict.checks.fencing;
    expect(result.valid).toBe('violated');
    expect(result.summary).toBe('violated: the fencing tokens went backwards 1 time');
    expect(result.counterExample?.message).toBe(
      "Client 2 was granted the lock at 600 ms and wrote 'invoice' with token 1 at 700 ms, but Client 1, granted it earlier (at 0 ms), had token 5 (written at 100 ms): " +
        'the fencing tokens went backwards from one grant to the next, so the store refuses the current holder or takes writes out of grant order. ' +
        'Every grant needs a greater token than the one before: take it from one counter that survives a restart, and wait for that counter when it is down.',
    );
    expect(result.counterExample?.seqs).toEqual([h.seq('first'), h.seq('second')]);
    expect(result.counterExample?.clients).toEqual([1, 2]);
    // Refused, yet not "saved by fencing": the write refused was the current holder's.
    expect(verdict.savedByFencing.count).toBe(0);
    expect(verdict.valid).toBe('violated');
  });

  it('5 → 5 (a tie) is backwards too', () => {
    expect(check(restart(5, false).build()).checks.fencing.valid).toBe('violated');
  });

  it('5 → 6 after the restart: held', () => {
    const verdict = check(restart(6, true).build());
    expect(verdict.checks.fencing.valid).toBe('held');
    expect(verdict.valid).toBe('held');
  });

  it('the older grant writing last, with a token not smaller than the later grant wrote with, is named too', () => {
    // Client 2 (granted later, token 1) writes first; Client 1 (granted earlier, token 1 from a fresh counter) is refused.
    const h = history()
      .at(0).acquired(1, 'lock', { ttlMs: 300 })
      .at(50).enter(1, 'send')
      .at(60).pause(1)
      .at(500).acquired(2, 'lock', { ttlMs: 1000 })
      .at(600).write(2, 'k', 1, { accepted: true, highest: null }).mark('later')
      .at(700).resume(1)
      .at(710).write(1, 'k', 1, { accepted: false, highest: 1 }).mark('earlier');
    const result = check(h.build()).checks.fencing;
    expect(result.valid).toBe('violated');
    expect(result.counterExample?.message).toMatch(/^Client 2 was granted the lock at 500 ms and wrote 'k' with token 1 at 600 ms, but Client 1, granted it earlier \(at 0 ms\), had token 1 \(written at 710 ms\)/);
    expect(result.counterExample?.seqs).toEqual([h.seq('later'), h.seq('earlier')]);
  });
});
