/** The pieces "Check my solution" builds a probe from, and reads its answer with: pure, no labs. */
import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '@/lib/history';
import { loadAllLessons } from '@/lib/lessons/load';
import { callBegins, callEnds, probeFailure, probeProgram, PROBE_MARK } from '@/server/grading/probe-program';
import { learnerDeclarations } from '@/server/grading/learner-declarations';
import { missingFollower, splitCallWords, tracedCalls } from '@/server/grading/command-trace';
import { gradingPlan } from '@/server/grading/grading-plan';

const PROGRAM = [
  "import Redis from 'ioredis';", // 1
  "const redis = new Redis({ host: 'redis-1.internal', port: 6379 });", // 2
  'const KEY: string = "lock:x";', // 3
  'async function release(key: string, token: string): Promise<boolean> {', // 4
  '  return (await redis.del(key)) === 1;', // 5
  '}', // 6
  'const token = await redis.get(KEY);', // 7: the driver starts here
  'for (let i = 0; i < 3; i++) await release(KEY, String(token));', // 8
  'function helper(): number { return 1; }', // 9: hoisted, so kept
  'redis.disconnect();', // 10
].join('\n');

describe('learnerDeclarations', () => {
  it('keeps imports, functions and the set-up before the first await, blanks the driver, and keeps every line where it was', () => {
    const result = learnerDeclarations(PROGRAM);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const lines = result.code.split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[1]).toContain('new Redis');
    expect(lines[2]).toContain('const KEY');
    expect(lines[2]).not.toContain(': string'); // types are gone
    expect(lines[4]).toContain('redis.del');
    expect(lines[6]!.trim()).toBe('');
    expect(lines[7]!.trim()).toBe('');
    expect(lines[8]).toContain('function helper');
    expect(lines[9]!.trim()).toBe('');
  });

  it('says why a program that does not compile cannot be probed', () => {
    const result = learnerDeclarations('function (');
    expect(result.ok).toBe(false);
  });
});

describe('probeProgram and probeFailure', () => {
  it('appends the helpers and the probe after the learner\'s last line', () => {
    const program = probeProgram(PROGRAM, '__probe.expect(false, "it broke");');
    expect(program.ok).toBe(true);
    if (!program.ok) return;
    expect(program.code.split('\n').slice(0, 10).join('\n')).toBe((learnerDeclarations(PROGRAM) as { code: string }).code);
    expect(program.code).toContain('const __probe');
    expect(program.code.trimEnd().endsWith('__probe.expect(false, "it broke");')).toBe(true);
  });

  it('reads a probe\'s sentence from a client error, and leaves the learner\'s own errors alone', () => {
    const said = { key: 'deletedForeign', values: { call: { code: "release('k', 't')" }, ttl: 300 } };
    expect(probeFailure(`Error: ${PROBE_MARK}${JSON.stringify(said)} (line 80)`)).toEqual({ said });
    // A sentence that is not one by key (an older probe) is read as it is.
    expect(probeFailure(`Error: ${PROBE_MARK}release() deleted Client 2's lock. (line 80)`)).toEqual({ text: "release() deleted Client 2's lock." });
    expect(probeFailure('TypeError: x is not a function (line 5)')).toBeNull();
    expect(probeFailure(undefined)).toBeNull();
  });
});

let seq = 0;
const ev = (t: number, e: Record<string, unknown>): HistoryEvent => ({ seq: seq++, t, runId: 'r', ...e }) as HistoryEvent;
const log = (t: number, client: number, text: string) => ev(t, { type: 'console', client, level: 'info', text });
const cmd = (t: number, client: number, command: string) => ev(t, { type: 'redis', phase: 'invoke', opId: seq, client, node: 1, command, args: ['lock:x'] });

describe('the command trace', () => {
  it('quotes a marked call that was several commands, with times from the run\'s start', () => {
    const events = [cmd(1000, 1, 'SET'), log(1010, 1, callBegins('release')), cmd(1012, 1, 'get'), cmd(1400, 2, 'SET'), cmd(1812, 1, 'del'), log(1813, 1, callEnds('release')), cmd(1900, 1, 'GET')];
    expect(tracedCalls(events, 'release', 1000)).toEqual([
      { client: 1, commands: [{ command: 'GET', key: 'lock:x', at: 12, node: 1 }, { command: 'DEL', key: 'lock:x', at: 812, node: 1 }] },
    ]);
    expect(splitCallWords(events, 'release', 1000)).toContain("Client 1's release() was 2 commands: GET at 12 ms, DEL at 812 ms.");
  });

  it('counts a MULTI … EXEC transaction as one step: nothing falls between its commands', () => {
    const tx = ['MULTI', 'SETNX', 'PEXPIRE', 'EXEC'].map((c, i) => cmd(12 + i, 1, c));
    expect(splitCallWords([log(10, 1, callBegins('acquire')), ...tx, log(20, 1, callEnds('acquire'))], 'acquire', 0)).toBeNull();
    // A command outside the transaction is a step of its own, and then the gap is real.
    const split = splitCallWords([log(10, 1, callBegins('acquire')), cmd(11, 1, 'GET'), ...tx, log(20, 1, callEnds('acquire'))], 'acquire', 0);
    expect(split).toContain("Client 1's acquire() was 5 commands");
  });

  it('has nothing to add when every call was one command', () => {
    const events = [log(10, 1, callBegins('release')), cmd(12, 1, 'EVALSHA'), log(13, 1, callEnds('release'))];
    expect(splitCallWords(events, 'release', 0)).toBeNull();
  });
});

describe('gradingPlan', () => {
  const lessons = loadAllLessons();

  it.each(lessons.map((l) => [l.slug, l] as const))('%s: adversaries first, then the scenarios under each seed, then the random schedules', (_slug, lesson) => {
    const plan = gradingPlan(lesson, lesson.solution);
    const { adversaries, exercise } = lesson;
    expect(plan).toHaveLength(adversaries.length + exercise.scenarios.length * exercise.seeds.length + exercise.randomSchedules.length);
    expect(plan.slice(0, adversaries.length).map((p) => p.id)).toEqual(adversaries.map((a) => a.id));
    expect(plan.every((p) => p.program.ok)).toBe(true);
    // A probe's program is the learner's declarations and the probe; a scenario runs the program as written.
    for (const p of plan.slice(0, adversaries.length)) if (p.probe && p.program.ok) expect(p.program.code).toContain('const __probe');
    for (const p of plan.slice(adversaries.length)) if (p.program.ok) expect(p.program.code).toBe(lesson.solution);
    expect(plan.slice(-exercise.randomSchedules.length).every((p) => p.random && p.hidden)).toBe(true);
  });

  it('every lesson has at least three wrong answers, each saying its mistake', () => {
    for (const lesson of lessons) {
      expect(lesson.wrong.length, lesson.slug).toBeGreaterThanOrEqual(3);
      for (const w of lesson.wrong) expect(w.mistake.length, `${lesson.slug}/${w.name}`).toBeGreaterThan(10);
    }
  });
});

describe('a command order a call must keep', () => {
  const rule = { after: 'SET', command: 'WAIT', why: 'Send the WAIT after the SET.' };
  it('names the call whose SET no WAIT followed, with its commands', () => {
    const events = [log(0, 1, callBegins('acquire')), cmd(12, 1, 'WAIT'), cmd(13, 1, 'SET'), log(14, 1, callEnds('acquire'))];
    expect(missingFollower(events, 'acquire', 0, rule)).toBe("Client 1's acquire() sent WAIT at 12 ms, SET at 13 ms: no WAIT after the SET. Send the WAIT after the SET.");
  });
  it('is satisfied by a WAIT after the SET, and by a call that sent no SET', () => {
    const kept = [log(0, 1, callBegins('acquire')), cmd(1, 1, 'SET'), cmd(2, 1, 'WAIT'), log(3, 1, callEnds('acquire')), log(4, 1, callBegins('acquire')), cmd(5, 1, 'GET'), log(6, 1, callEnds('acquire'))];
    expect(missingFollower(kept, 'acquire', 0, rule)).toBeNull();
  });
});
