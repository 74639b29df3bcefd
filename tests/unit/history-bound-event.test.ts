import { describe, expect, it } from 'vitest';
import { IncrementalChecker } from '@/lib/checker';
import type { HistoryInput, ReplyJson } from '@/lib/history';
import { HistoryLog } from '@/server/lab/history-log';
import { boundEvent, cutString, MAX_ARGS, SCRIPT_CHARS, TEXT_CHARS, VALUE_CHARS } from '@/server/sandbox/worker/bound-event';

const MB = 1024 * 1024;
const invoke = (client: number, opId: number, command: string, args: string[]): HistoryInput => ({ type: 'redis', phase: 'invoke', opId, client, node: 1, command, args });
const ok = (client: number, opId: number, command: string, reply: ReplyJson): HistoryInput => ({ type: 'redis', phase: 'ok', opId, client, node: 1, command, reply });

describe('boundEvent (the sandbox keeps a prefix of what a learner sizes)', () => {
  it('leaves small events alone: the same object, no fullBytes', () => {
    const e = invoke(1, 1, 'SET', ['lock', 'client-1', 'NX', 'PX', '5000']);
    expect(boundEvent(e)).toBe(e);
  });

  it('cuts a 1 MB argument to a prefix with its full size and a hash; the event records its real size', () => {
    const big = 'v'.repeat(MB);
    const e = boundEvent(invoke(1, 1, 'SET', ['k', big]));
    if (e.type !== 'redis' || e.phase !== 'invoke') throw new Error('not an invoke');
    const arg = e.args[1] as string;
    expect(arg.length).toBeLessThan(VALUE_CHARS + 60);
    expect(arg.startsWith('v'.repeat(VALUE_CHARS))).toBe(true);
    expect(arg).toContain(`${MB} B #`);
    expect(e.args[0]).toBe('k');
    expect(e.fullBytes).toBe(MB + 'k'.length + 'SET'.length); // every learner-sized string of the event, in full
  });

  it('counts UTF-8 bytes, and never ends the prefix on half a surrogate pair', () => {
    const s = 'a'.repeat(VALUE_CHARS - 1) + '😀'.repeat(1000);
    const cut = cutString(s, VALUE_CHARS);
    expect(cut).toContain(`${Buffer.byteLength(s)} B #`);
    expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut); // no lone surrogate (it would come back as U+FFFD)
  });

  it('cuts the same string the same way, and different strings differently (same prefix, same length)', () => {
    const prefix = 't'.repeat(VALUE_CHARS + 50);
    const a = prefix + 'a'.repeat(1000);
    const b = prefix + 'b'.repeat(1000);
    expect(cutString(a, VALUE_CHARS)).toBe(cutString(a, VALUE_CHARS));
    expect(cutString(a, VALUE_CHARS)).not.toBe(cutString(b, VALUE_CHARS));
    expect(cutString(a, VALUE_CHARS)).not.toBe(cutString(a + 'a', VALUE_CHARS));
  });

  it('a cut string is always longer than the limit, so it can never equal a value kept whole', () => {
    const long = 'x'.repeat(VALUE_CHARS + 1);
    expect(cutString(long, VALUE_CHARS).length).toBeGreaterThan(VALUE_CHARS);
    // Even a learner who writes the marker by hand stays under the limit or is cut in turn.
    const forged = cutString(long, VALUE_CHARS);
    const e = boundEvent(invoke(1, 1, 'SET', ['k', forged]));
    if (e.type !== 'redis' || e.phase !== 'invoke') throw new Error('not an invoke');
    expect(e.args[1]).not.toBe(forged);
  });

  it('keeps a script whole up to SCRIPT_CHARS (the checker reads the commands it calls)', () => {
    const script = `-- ${'padding '.repeat(200)}\nif redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;
    expect(script.length).toBeGreaterThan(VALUE_CHARS);
    expect(script.length).toBeLessThan(SCRIPT_CHARS);
    expect(boundEvent(invoke(1, 1, 'EVAL', [script, '1', 'lock', 'tok']))).toEqual(invoke(1, 1, 'EVAL', [script, '1', 'lock', 'tok']));
  });

  it('cuts long argument lists and replies, and says how many arguments there were', () => {
    const keys = Array.from({ length: 1_000 }, (_, i) => `k${i}`);
    const e = boundEvent(invoke(1, 1, 'DEL', keys));
    if (e.type !== 'redis' || e.phase !== 'invoke') throw new Error('not an invoke');
    expect(e.args).toHaveLength(MAX_ARGS);
    expect(e.argCount).toBe(1_000);
    const r = boundEvent(ok(1, 1, 'KEYS', Array.from({ length: 10_000 }, (_, i) => `key:${i}`)));
    if (r.type !== 'redis' || r.phase === 'invoke') throw new Error('not a completion');
    expect((r.reply as ReplyJson[]).length).toBeLessThanOrEqual(256);
    expect(r.fullBytes).toBeGreaterThan(50_000);
  });

  it('bounds console lines, store values, job names, lock tokens and client details', () => {
    const big = 'z'.repeat(MB);
    const text = boundEvent({ type: 'console', client: 1, level: 'log', text: big });
    expect(text.type === 'console' && text.text.length < TEXT_CHARS + 60).toBe(true);
    const store = boundEvent({ type: 'store', client: 1, key: big, value: big, token: 3, accepted: true, highest: 2 });
    expect(store.type === 'store' && store.key.length < VALUE_CHARS + 60 && store.value === store.key).toBe(true);
    expect(store.fullBytes).toBe(2 * MB);
    const job = boundEvent({ type: 'job', phase: 'enter', client: 1, job: big, execution: 1 });
    expect(job.type === 'job' && job.job.length < VALUE_CHARS + 60).toBe(true);
    const lock = boundEvent({ type: 'lock', client: 1, event: 'acquired', resources: [big], token: big, ttlMs: 1000 });
    expect(lock.type === 'lock' && lock.token.length < VALUE_CHARS + 60 && lock.resources[0] === lock.token && lock.ttlMs === 1000).toBe(true);
    const client = boundEvent({ type: 'client', client: 1, event: 'error', detail: big });
    expect(client.type === 'client' && (client.detail ?? '').length < 600).toBe(true);
  });
});

describe('the checker on cut values', () => {
  /** Runs events through the sandbox's bounding and a history, then the checker. */
  function check(inputs: HistoryInput[]) {
    const log = new HistoryLog(() => 0);
    let t = 0;
    for (const input of inputs) log.append({ ...boundEvent(input), t: (t += 10) });
    return new IncrementalChecker({ nodes: 1 }).push(log.since(0)).verdict({ final: true });
  }
  const prefix = 'token-'.repeat(100);
  const token1 = prefix + '1'.repeat(10_000);
  const token2 = prefix + '2'.repeat(10_000);
  const DEL_ANY = "return redis.call('del', KEYS[1])";

  it('two long tokens with the same prefix and length stay different: a foreign delete is still seen', () => {
    const verdict = check([
      invoke(1, 1, 'SET', ['lock', token1, 'NX', 'PX', '5000']),
      ok(1, 1, 'SET', 'OK'),
      invoke(2, 2, 'EVAL', [DEL_ANY, '1', 'lock', token2]),
      ok(2, 2, 'EVAL', 1),
    ]);
    expect(verdict.diagnoses.map((d) => d.kind)).toContain('release-deleted-foreign-lock');
  });

  it('the same long token compares equal: deleting with your own token is no foreign delete', () => {
    const verdict = check([
      invoke(1, 1, 'SET', ['lock', token1, 'NX', 'PX', '5000']),
      ok(1, 1, 'SET', 'OK'),
      invoke(2, 2, 'EVAL', [DEL_ANY, '1', 'lock', token1]),
      ok(2, 2, 'EVAL', 1),
    ]);
    expect(verdict.diagnoses.map((d) => d.kind)).not.toContain('release-deleted-foreign-lock');
  });

  it('a long value read back by GET (a reply, cut the same way) matches what was SET', () => {
    const verdict = check([
      invoke(1, 1, 'SET', ['lock', token1, 'NX', 'PX', '5000']),
      ok(1, 1, 'SET', 'OK'),
      invoke(2, 2, 'GET', ['lock']),
      ok(2, 2, 'GET', token1),
      invoke(2, 3, 'DEL', ['lock']),
      ok(2, 3, 'DEL', 1),
    ]);
    // The model still knows Client 1 set it (the GET did not look like a different value), so the DEL is foreign.
    expect(verdict.diagnoses.map((d) => d.kind)).toContain('release-deleted-foreign-lock');
  });
});
