import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import type { Verdict } from '@/lib/checker';
import { history } from './helpers/history-builder';

const LOCK = 'lock:invoice';
const COUNTER = 'fencing:invoice';
const COUNTER_SCRIPT = "local n = (tonumber(redis.call('GET', KEYS[1])) or 0) + 1; redis.call('SET', KEYS[1], n); return n";

const lockDiagnoses = (verdict: Verdict) => verdict.diagnoses.filter((d) => d.kind === 'lock-without-ttl-never-frees').map((d) => d.message);

/**
 * Two clients take a Redlock-style lock on one node in turn and each draws a fencing token from a counter kept
 * without a TTL — by GET and SET after the lock is held (safe: only the holder writes it), or by a script.
 */
function fencedRuns(counter: 'get-set' | 'script') {
  const h = history();
  let t = 0;
  for (const client of [1, 2]) {
    h.at(t).redis(client, 1, 'SET', [LOCK, `tok-${client}`, 'NX', 'PX', '2000'], 'OK');
    if (counter === 'get-set') {
      h.at(t + 2).redis(client, 1, 'GET', [COUNTER], client === 1 ? null : '1');
      h.at(t + 4).redis(client, 1, 'SET', [COUNTER, String(client)], 'OK');
    } else {
      h.at(t + 2).redis(client, 1, 'EVAL', [COUNTER_SCRIPT, '1', COUNTER, '1'], client);
    }
    h.at(t + 10).enter(client).at(t + 300).exit(client);
    h.at(t + 310).redis(client, 1, 'DEL', [LOCK], 1);
    h.at(t + 320).client(client, 'exit');
    t += 400;
  }
  return h.build();
}

describe('checker: a lesson that names its lock keys', () => {
  for (const counter of ['get-set', 'script'] as const) {
    it(`reads a fencing counter kept without a TTL (${counter}) as no lock: a right answer holds, with nothing to say of it`, () => {
      const verdict = check(fencedRuns(counter), { lockKeys: [LOCK], livenessBoundMs: 2000 });
      expect(verdict.checks['mutual-exclusion'].valid).toBe('held');
      expect(lockDiagnoses(verdict)).toEqual([]);
      expect(verdict.checks.liveness.valid).not.toBe('violated');
    });
  }

  it('without named keys the same counter reads as a lock without a TTL (why a lesson with a counter names its locks)', () => {
    expect(lockDiagnoses(check(fencedRuns('get-set'), { livenessBoundMs: 2000 })).join(' ')).toContain(COUNTER);
  });

  it('still reads a check-then-set on a named key as an acquire: two clients that both read it free both hold it', () => {
    const h = history()
      .at(0).redis(1, 1, 'GET', [LOCK], null)
      .at(1).redis(2, 1, 'GET', [LOCK], null)
      .at(2).redis(1, 1, 'SET', [LOCK, 'a', 'PX', '1000'], 'OK')
      .at(3).redis(2, 1, 'SET', [LOCK, 'b', 'PX', '1000'], 'OK')
      .at(5).enter(1).at(6).enter(2).at(300).exit(1).at(301).exit(2);
    expect(check(h.build(), { lockKeys: [LOCK] }).checks['mutual-exclusion'].valid).toBe('violated');
  });
});
