/**
 * A probe's program: the learner's declarations (their function and what it
 * needs), then the probe's helpers, then the probe's driver. Every name the
 * probe adds starts with `__`, so it cannot collide with the learner's.
 *
 * A probe reports a failure by throwing a `ProbeFailure`, whose message
 * starts with PROBE_MARK and names a sentence of its adversary's `says` by
 * key, with its values as JSON: the grader reads it from the client's error
 * and writes the sentence in English and in the learner's language. Its marked calls (`__probe.call`) log
 * `probe: <name> begins` / `ends`, which scenario steps can wait for (`since`)
 * and the grader uses to quote the commands a call sent.
 */
import type { ProbeSaid } from '@/lib/lessons/probe-says';
import { learnerDeclarations } from './learner-declarations';

export const PROBE_MARK = '✗ ';
/**
 * The key a probe fails with when the learner's program lacks the function it calls: one sentence for every
 * probe, so it lives in the grader's catalogue (`grading.probeMustDefine`), not in each adversary's `says`.
 */
export const MUST_DEFINE = '@mustDefine';
export const callBegins = (name: string): string => `probe: ${name} begins`;
export const callEnds = (name: string): string => `probe: ${name} ends`;

const PRELUDE = `
import __Redis from 'ioredis';
import __lab from 'lab';
class __ProbeFailure extends Error {}
const __probe = {
  /** A connection of the probe's own: it sets up and inspects keys, it never stands in for the learner. */
  node(n = 1) {
    const r = new __Redis({ host: 'redis-' + n + '.internal', port: 6379, commandTimeout: 2000 });
    r.on('error', () => undefined);
    return r;
  },
  async call(name, fn) {
    __lab.log(${JSON.stringify(callBegins('@'))}.replace('@', name));
    try {
      return await fn();
    } finally {
      __lab.log(${JSON.stringify(callEnds('@'))}.replace('@', name));
    }
  },
  /** Fails with a sentence of the adversary's \`says\`, by key, with the values its template names (JSON). */
  fail(key, values = {}) {
    throw new __ProbeFailure(${JSON.stringify(PROBE_MARK)} + JSON.stringify({ key, values }));
  },
  /** values may be a function, so what it shows is worked out only when the check fails. */
  expect(condition, key, values = {}) {
    if (!condition) __probe.fail(key, typeof values === 'function' ? values() : values);
  },
  /** A phrase of the adversary's \`says\`, as a value of another sentence. */
  say(key, values = {}) {
    return { say: key, values };
  },
  /** A value as a learner would write it: 'abc', null, 2.5, {"token":"x"} — a value of a sentence, kept as code. */
  show(value) {
    let text;
    if (typeof value === 'string') text = "'" + (value.length > 40 ? value.slice(0, 40) + '…' : value) + "'";
    else if (value === undefined) text = 'undefined';
    else {
      try { text = JSON.stringify(value); } catch { text = String(value); }
      if (text === undefined) text = String(value);
    }
    return { code: text };
  },
  /** Waits until check() is true, or fails with the sentence \`key\` after ms (a condition, never a fixed sleep). */
  async until(check, ms, key, values = {}) {
    const giveUp = Date.now() + ms;
    for (;;) {
      if (await check()) return;
      if (Date.now() > giveUp) __probe.fail(key, values);
      await __lab.sleep(20);
    }
  },
  /** Logs a line each time one of this client's store reads is answered, so a scenario step can wait for that moment. */
  markStoreReads() {
    const read = __lab.store.read;
    __lab.store.read = async (key) => {
      const value = await read(key);
      __lab.log('probe: store read answered');
      // A pause that waits for this line lands at the next turn of the client's loop: give it that turn
      // here, before the learner's code acts on the value it read.
      await __lab.sleep(1);
      return value;
    };
  },
  /** Logs a line each time a lock of this redlock instance is released, and gives a pause waiting for it its turn. */
  markLockReleases(redlock) {
    if (!redlock || typeof redlock.release !== 'function') return;
    const release = redlock.release.bind(redlock);
    redlock.release = async (...args) => {
      const result = await release(...args);
      __lab.log('probe: lock released');
      await __lab.sleep(1);
      return result;
    };
  },
  /** Counts this client's completed runs of a job, and logs as each one ends ("probe: daily-report ended"). */
  countJobs(name) {
    const counter = { done: 0 };
    const jobOf = __lab.job;
    __lab.job = function (jobName) {
      const job = jobOf(jobName);
      if (jobName !== name) return job;
      const run = job.run;
      job.run = async function (...args) {
        const result = await run.apply(job, args);
        counter.done++;
        __lab.log('probe: ' + name + ' ended');
        return result;
      };
      return job;
    };
    return counter;
  },
  /** Calls run() again while done() says no, as a cron fires again a little later, for at most ms. */
  async again(run, done, ms) {
    const giveUp = Date.now() + ms;
    for (;;) {
      await run();
      if (Date.now() > giveUp || (await done())) return;
      await __lab.sleep(200);
    }
  },
  /** The learner's function, or a clear failure when the program no longer defines it. */
  fn(name, value) {
    if (typeof value !== 'function') __probe.fail(${JSON.stringify(MUST_DEFINE)}, { fn: name });
    return value;
  },
};
`;

export type ProbeProgram = { ok: true; code: string } | { ok: false; error: string };

export function probeProgram(learnerCode: string, probe: string): ProbeProgram {
  const declarations = learnerDeclarations(learnerCode);
  if (!declarations.ok) return declarations;
  // Line numbers of the learner's code stay as they were: the probe comes after its last line.
  return { ok: true, code: `${declarations.code}\n${PRELUDE}\n${probe}\n` };
}

/**
 * What a probe failed with, from a client's error text: a sentence by key (`said`), or the text itself when it
 * is not one (an older probe); null when the error is the learner's own.
 */
export function probeFailure(error: string | undefined): { said: ProbeSaid } | { text: string } | null {
  if (!error) return null;
  const at = error.indexOf(PROBE_MARK);
  if (at < 0) return null;
  // The sandbox appends where the error was thrown ("… (line 80)"): that line is the probe's, not the learner's.
  const text = error.slice(at + PROBE_MARK.length).replace(/\s*\(line \d+(:\d+)?\)\s*$/, '').trim();
  try {
    const data: unknown = JSON.parse(text);
    if (data !== null && typeof data === 'object' && typeof (data as { key?: unknown }).key === 'string') {
      const { key, values } = data as { key: string; values?: unknown };
      return { said: { key, values: values !== null && typeof values === 'object' ? (values as ProbeSaid['values']) : {} } };
    }
  } catch {
    // Not a sentence by key: the text as it is.
  }
  return { text };
}
