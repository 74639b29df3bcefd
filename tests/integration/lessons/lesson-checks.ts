/**
 * Every lesson against real nodes: its starter runs, its "Break it" really
 * breaks (as the front matter says, with the diagnosis it teaches), its "Fix
 * it" holds on every seed, the reference solution passes the grader and a
 * known-wrong answer fails it with a counter-example. `npm run fidelity` runs
 * the same trials 100 / 200 times; here a few seeds keep the suite quick.
 * The lessons are split over two files so two labs run at a time, no more,
 * and the two take about as long (LESSON_FILES).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GradeResult } from '@/lib/grading';
import { loadAllLessons, programSource, type Lesson } from '@/lib/lessons/load';
import { gradeExercise } from '@/server/grading/grader';
import { seedsFrom, trialScenario } from '@/server/grading/fidelity';
import { Lab } from '@/server/lab/lab';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';

const BREAK_SEEDS = seedsFrom(1, 3);
/**
 * One seed of each fix here (it must hold): `npm run fidelity` plays 200 of each, and the grader test plays the
 * exercise's own seeds. A second seed here bought no failure the fidelity runs had not found, and cost the suite
 * about a minute.
 */
const FIX_SEEDS = seedsFrom(1, 1);
/** A break must show on most seeds (the fidelity run holds it to ≥ 95 % over 100); a fix on every one. */
const BREAKS_NEEDED = 2;
const LESSON_TIMEOUT_MS = 240_000;
const GRADER_TIMEOUT_MS = 480_000;

export const allLessons = loadAllLessons();

/**
 * Which lessons each file checks: two halves of about equal time, so neither file waits on the other
 * (measured in a full `npm test` on two cores with 3, 4, 8 | 1, 2, 5, 6, 7: 211 s | 305 s; lesson 6 takes ~45 s).
 */
export const LESSON_FILES: Record<'a' | 'b', readonly number[]> = { a: [3, 4, 6, 8], b: [1, 2, 5, 7] };

/**
 * A fix scenario the exercise itself plays with the reference solution (same program, same
 * expectation: held, nothing more) is covered by the grader test below, over the exercise's own
 * seeds; playing it here too would only spend the suite's time.
 */
function gradedByTheExercise(lesson: Lesson, entry: Lesson['lessonScenarios'][number]): boolean {
  const plainHeld = Object.keys(entry.expect).length === 1 && entry.expect.verdict === 'held';
  return entry.role === 'fix' && entry.program === 'solution' && plainHeld && lesson.exercise.scenarios.includes(entry.id);
}

/** Checks a learner may make in a row when the answer is "too busy to tell" (a learner presses the button again). */
const CHECKS_WHILE_BUSY = 3;

/**
 * "Check my solution" until it decides. "Too busy to tell" is the grader declining to decide while the machine
 * holds the lab up (server/grading/disturbance.ts), neither a pass nor a failure; a learner checks again. Three
 * undecided checks in a row fail the test, saying so: nothing here passes by default.
 */
async function checkUntilDecided(check: () => Promise<GradeResult>): Promise<GradeResult> {
  for (let n = 1; ; n++) {
    const result = await check();
    if (!result.busy) return result;
    if (n >= CHECKS_WHILE_BUSY) throw new Error(`the machine was too busy to decide, ${n} checks in a row: ${result.busy}`);
  }
}

/**
 * What the sentence of a rejected wrong answer must name: the mechanism the run showed, not a neighbouring
 * mistake ("milliseconds, not seconds" for a TTL added to the time left, "crashed between two commands" for a
 * PEXPIRE that refreshes another client's lock, fencing for an un-awaited record). Keyed `<lesson slug>/<wrong answer>`.
 */
const MECHANISM_NAMED: Record<string, RegExp> = {
  'naive-lock/multi-setnx-pexpire': /acquire\(\) that returned null raised that lock's TTL/,
  'naive-lock/stuck-lock-takeover': /on a lock still held, with \d+% of its TTL gone/,
  'safe-release/guards-double-release-by-key': /After a release and a new lock on the same key/,
  'safe-release/safety-timer-deletes-later': /something your release\(\) left behind/,
  'ttl-and-watchdog/extend-adds-to-remaining': /were added to the time the lock had left/,
  'ttl-and-watchdog/checks-token-once': /changed the TTL of Client 2's lock/,
  'failover/cached-confirmation': /the second acquire\(.*\) returned a lock that Node 2, the replica, did not have/,
  'failover/confirmation-trusted-for-a-ttl': /the second acquire\(.*\) returned a lock that Node 2, the replica, did not have/,
  'redlock/votes-kept-between-tries': /called again, as the retry loop does/,
  'pauses-and-clocks/clock-of-its-own': /clock stepped 5 s ahead.*answered the same question right before the step/,
  'pauses-and-clocks/answer-kept-per-lock': /still returned true 400 ms later/,
  'pauses-and-clocks/long-expiry-taken-for-clock-jump': /a lock that expired (2500|5000) ms ago/,
  'fencing-tokens/retries-with-new-token': /changed the token counter/,
  'fencing-tokens/skips-token-already-accepted': /a second write with token 6 after the store had accepted token 6/,
  'choosing-a-lock/done-record-not-awaited': /reached the store only at .* after Client \d had been granted the lock/,
  'choosing-a-lock/never-runs': /the report never ran/,
  'choosing-a-lock/done-flag-in-memory': /ran twice, expected once/,
};
const NOT_NAMED: Record<string, RegExp> = {
  'naive-lock/multi-setnx-pexpire': /crashed between two commands/,
  'ttl-and-watchdog/extend-adds-to-remaining': /seconds/,
  'choosing-a-lock/done-record-not-awaited': /fencing/i,
  'choosing-a-lock/never-runs': /verdict is unknown/,
};

export function checkLessons(lessons: Lesson[]): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-lessons-'));
  let pool: SandboxPool;
  beforeAll(async () => {
    pool = createSandboxPool({ warmWorkers: 1 });
    await pool.whenWarm();
  });
  afterAll(async () => {
    await pool?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function withLab<T>(lesson: Lesson, name: string, use: (runs: LabRuns) => Promise<T>): Promise<T> {
    const lab = new Lab({ topology: lesson.topology, clients: lesson.defaultClients, dir: path.join(dir, `${lesson.slug}-${name}`) });
    await lab.start();
    try {
      return await use(new LabRuns(lab, pool));
    } finally {
      await lab.destroy();
    }
  }

  describe.each(lessons.map((l) => [l.slug, l] as const))('lesson %s', (_slug, lesson) => {
    it('its starter runs to the end', { timeout: LESSON_TIMEOUT_MS }, async () => {
      await withLab(lesson, 'starter', async (runs) => {
        const info = await runs.start({ code: lesson.starter, clients: lesson.defaultClients, topology: lesson.topology, checker: lesson.checker });
        const ended = await runs.whenEnded(info.runId);
        expect(ended.outcome.status, ended.outcome.error).toBe('completed');
        expect(ended.outcome.clients.filter((c) => c.status === 'error'), JSON.stringify(ended.outcome.clients)).toEqual([]);
      });
    });

    it('breaks and holds as its scenarios promise', { timeout: LESSON_TIMEOUT_MS }, async () => {
      for (const entry of lesson.lessonScenarios.filter((s) => s.role !== 'explore' && !gradedByTheExercise(lesson, s))) {
        // A break stops once it showed BREAKS_NEEDED times; a fix plays every seed.
        const t = await trialScenario(lesson, entry, entry.role === 'fix' ? FIX_SEEDS : BREAK_SEEDS, pool, dir, undefined, entry.role === 'fix' ? Infinity : BREAKS_NEEDED);
        const detail = `${t.scenario}: ${t.met}/${t.runs}, ${t.undecided ?? 0} undecided (the machine held every play up) ${JSON.stringify(t.misses)}`;
        // A fix must have held where it was decided, and been decided at least once: no pass by default.
        if (t.role === 'fix') {
          expect(t.runs, detail).toBeGreaterThan(0);
          expect(t.met, detail).toBe(t.runs);
        }
        else expect(t.met, detail).toBeGreaterThanOrEqual(BREAKS_NEEDED);
      }
    });

    it('every wrong answer whose sentence is held to its mechanism is in the corpus', () => {
      const names = new Set(lesson.wrong.map((w) => `${lesson.slug}/${w.name}`));
      const listed = [...Object.keys(MECHANISM_NAMED), ...Object.keys(NOT_NAMED)].filter((k) => k.startsWith(`${lesson.slug}/`));
      expect(listed.filter((k) => !names.has(k))).toEqual([]);
    });

    it('the grader accepts the reference solution and rejects the starter and every wrong answer of the corpus, each with what broke', { timeout: GRADER_TIMEOUT_MS }, async () => {
      await withLab(lesson, 'grader', async (runs) => {
        // Two spare labs beside the learner's, as the server lends them: the plan's runs play side by side.
        await withLab(lesson, 'spare-1', async (spare1) => {
          await withLab(lesson, 'spare-2', async (spare2) => {
            const spares = [spare1, spare2];
            const check = (code: string) => checkUntilDecided(() => gradeExercise(lesson, code, runs, undefined, spares));
            const right = await check(lesson.solution);
            expect(right.passed, JSON.stringify(right.runs.filter((r) => !r.passed))).toBe(true);
            expect(right.runs).toHaveLength(right.total);
            const starter = await check(programSource(lesson, lesson.exercise.knownWrong));
            expect(starter.passed).toBe(false);
            expect(starter.failure?.hint).toBeTruthy();
            const accepted: string[] = [];
            for (const wrong of lesson.wrong) {
              const graded = await check(wrong.code);
              if (graded.passed) accepted.push(`${wrong.name} (${wrong.mistake})`);
              else {
                // What a learner reads: a sentence about their code, and the run it happened in, in their own lab.
                const said = `${wrong.name}: ${graded.failure?.message ?? ''}`;
                expect(graded.failure?.message.length, said).toBeGreaterThan(30);
                const named = MECHANISM_NAMED[`${lesson.slug}/${wrong.name}`];
                if (named) expect(said, 'the sentence names the mechanism the run showed').toMatch(named);
                const notNamed = NOT_NAMED[`${lesson.slug}/${wrong.name}`];
                if (notNamed) expect(said, 'the sentence names a neighbouring mistake').not.toMatch(notNamed);
                // Found in a spare lab, it was played again in the learner's: an adversary that decides only sometimes shows here.
                expect(said, 'an adversary that decides only sometimes').not.toContain('played again in yours, it held');
                // Its run is in the learner's lab, unless the machine was too busy to play it there fairly; then
                // the sentence says where it happened instead.
                const inTheirLab = await runs.whenEnded(graded.failure?.runId ?? '').then(() => true, () => false);
                if (!inTheirLab) expect(said, 'a failure whose run is not in the learner’s lab').toContain('too busy to play it again fairly in yours');
              }
            }
            expect(accepted.join('; '), 'wrong answers the grader accepted').toBe('');
          });
        });
      });
    });
  });
}
