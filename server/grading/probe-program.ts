/**
 * A probe's program: the learner's declarations (their function and what it
 * needs), then the probe's helpers, then the probe's driver. Every name the
 * probe adds starts with `__`, so it cannot collide with the learner's.
 *
 * A probe reports a failure by throwing a `ProbeFailure`, whose message
 * starts with PROBE_MARK: the grader reads it from the client's error and
 * shows the sentence as it is. Its marked calls (`__probe.call`) log
 * `probe: <name> begins` / `ends`, which scenario steps can wait for (`since`)
 * and the grader uses to quote the commands a call sent.
 */
import { learnerDeclarations } from './learner-declarations';

export const PROBE_MARK = '✗ ';
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
  fail(message) {
    throw new __ProbeFailure(${JSON.stringify(PROBE_MARK)} + message);
  },
  expect(condition, message) {
    if (!condition) __probe.fail(typeof message === 'function' ? message() : message);
  },
  /** A value as a learner would write it: 'abc', null, 2.5, {"token":"x"}. */
  show(value) {
    if (typeof value === 'string') return "'" + (value.length > 40 ? value.slice(0, 40) + '…' : value) + "'";
    if (value === undefined) return 'undefined';
    try { return JSON.stringify(value); } catch { return String(value); }
  },
  /** Waits until check() is true, or fails with message after ms (a condition, never a fixed sleep). */
  async until(check, ms, message) {
    const giveUp = Date.now() + ms;
    for (;;) {
      if (await check()) return;
      if (Date.now() > giveUp) __probe.fail(message);
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
    if (typeof value !== 'function') __probe.fail('the program must define the function ' + name + '() — the probe calls it by that name');
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

/** The sentence a probe failed with, from a client's error text; null when the error is the learner's own. */
export function probeFailure(error: string | undefined): string | null {
  if (!error) return null;
  const at = error.indexOf(PROBE_MARK);
  if (at < 0) return null;
  // The sandbox appends where the error was thrown ("… (line 80)"): that line is the probe's, not the learner's.
  return error.slice(at + PROBE_MARK.length).replace(/\s*\(line \d+(:\d+)?\)\s*$/, '').trim();
}
