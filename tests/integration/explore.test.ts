/**
 * "Explore" against real nodes: random schedules from a lesson's fault space
 * find what breaks a wrong lock, shrink it, and play the smallest schedule
 * last in the learner's lab; on the reference solution they find nothing and
 * say how much they tried.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAllLessons, type Lesson } from '@/lib/lessons/load';
import { explore, targetedSchedules } from '@/server/grading/explore';
import { lessonIn } from '@/server/grading/lesson-words';
import { Lab } from '@/server/lab/lab';
import { LabRuns } from '@/server/runs/lab-runs';
import { useSandboxPool } from './lab-fixture';

const lessons = loadAllLessons();
const lesson = (slug: string): Lesson => lessons.find((l) => l.slug === slug)!;

describe('explore', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-explore-'));
  const pool = useSandboxPool();
  const labs: Lab[] = [];
  afterAll(async () => {
    await Promise.all(labs.map((l) => l.destroy()));
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const labsFor = async (l: Lesson, n: number): Promise<LabRuns[]> => {
    const made = Array.from({ length: n }, (_, i) => new Lab({ topology: l.topology, clients: 3, dir: path.join(dir, `${l.slug}-${labs.length + i}`) }));
    labs.push(...made);
    await Promise.all(made.map((m) => m.start()));
    return made.map((m) => new LabRuns(m, pool()));
  };

  it('breaks a check-then-set lock, shrinks the schedule, and plays the smallest one last in the learner\'s lab', { timeout: 180_000 }, async () => {
    const naive = lesson('naive-lock');
    const wrong = naive.wrong.find((w) => w.name === 'get-then-set-px')!;
    const [own, ...spares] = await labsFor(naive, 2);
    const phases = new Set<string>();
    const result = await explore({ code: wrong.code, topology: naive.topology, checker: naive.checker, space: naive.explore }, own!, spares, { seconds: 20, seed: 7 }, (p) => phases.add(p.phase));
    expect(result.found).toBe(true);
    if (!result.found) return;
    expect(result.message).toContain('two clients in the critical section');
    expect(result.faultsAfter).toBeLessThanOrEqual(result.faultsBefore);
    expect(result.lines).toHaveLength(result.faultsAfter);
    // The run the learner is shown is the last one in their own lab, and it broke (or the answer says it did not, this time).
    if (result.onTimeline) expect((await own!.whenEnded(result.runId)).verdict.checks['mutual-exclusion'].valid).toBe('violated');
    else expect(result.message).toContain('two clients');
    // It searched; the failing run is the lab's last because shrinking ended on it, or because it was played again.
    expect(phases.has('searching')).toBe(true);
    if (result.onTimeline && result.runId !== (await own!.whenEnded(result.runId)).runId) expect(phases.has('replaying')).toBe(true);
  });

  it('finds nothing in the reference solution of lesson 2, and says what it tried', { timeout: 120_000 }, async () => {
    const safe = lesson('safe-release');
    const [own, ...spares] = await labsFor(safe, 2);
    const began = performance.now();
    const result = await explore({ code: safe.solution, topology: safe.topology, checker: safe.checker, space: safe.explore }, own!, spares, { seconds: 8, seed: 11 });
    const tookS = (performance.now() - began) / 1000;
    expect(result.found).toBe(false);
    expect(result.schedules).toBeGreaterThan(2);
    expect(result.checked.join(' ')).toContain('pauses of a client');
    if (!result.found) expect(result.maxFaults).toBe(safe.explore.maxFaults);
    // It keeps to its budget: what plays when the time is up is stopped (a little for the stop itself).
    expect(tookS).toBeLessThan(8 + 3);
    expect(result.seconds).toBeLessThan(8 + 3);
  });

  it("on lesson 5's starter, plays the lesson's Break it first and finds the break within its budget", { timeout: 120_000 }, async () => {
    const redlock = lesson('redlock');
    const [own, ...spares] = await labsFor(redlock, 2);
    // As a Norwegian page asks: the lesson's schedules play as written, and the one that breaks is named in Norwegian.
    const norwegian = await lessonIn(redlock, 'nb');
    const targeted = targetedSchedules(redlock, norwegian);
    expect(targeted.length).toBeGreaterThan(0);
    expect(targeted.map((t) => t.scenario)).toEqual([
      ...redlock.lessonScenarios.filter((s) => s.role === 'break').map((s) => s.scenario),
      ...redlock.adversaries.filter((a) => a.probeCode === null).map((a) => a.scenario),
    ]);
    const norwegianTitles = [...norwegian.lessonScenarios.map((s) => s.scenario.title), ...norwegian.adversaries.map((a) => a.scenario.title)];
    const englishTitles = new Set([...redlock.lessonScenarios.map((s) => s.scenario.title), ...redlock.adversaries.map((a) => a.scenario.title)]);
    const result = await explore({ code: redlock.starter, topology: redlock.topology, checker: redlock.checker, space: redlock.explore, targeted }, own!, spares, { seconds: 10, seed: 3 });
    expect(result.found, JSON.stringify(result)).toBe(true);
    if (!result.found) return;
    expect(result.seconds).toBeLessThan(10 + 3);
    expect(norwegianTitles).toContain(result.targetedTitle);
    expect(englishTitles.has(result.targetedTitle ?? '')).toBe(false);
  });

  it("plays the lesson's own schedules to their end when the random search's time is spent before they finish", { timeout: 120_000 }, async () => {
    // A budget spent before the first run's first line, as on a busy machine where a sandbox worker boots for seconds:
    // the lesson's break must still be found in code that has the lesson's bug, not "found nothing".
    const redlock = lesson('redlock');
    const [own, ...spares] = await labsFor(redlock, 2);
    const targeted = targetedSchedules(redlock, redlock);
    const phases: string[] = [];
    const result = await explore({ code: redlock.starter, topology: redlock.topology, checker: redlock.checker, space: redlock.explore, targeted }, own!, spares, { seconds: 0.001, seed: 5 }, (p) => phases.push(p.phase));
    expect(result.found, JSON.stringify(result)).toBe(true);
    if (!result.found) return;
    expect(targeted.map((t) => t.title)).toContain(result.targetedTitle);
    // The page was told why the search goes on past its time; no random schedule was started after it.
    expect(phases).toContain('aimed');
    expect(result.schedules).toBe(0);
    expect(result.message).toContain('two clients');
  });
});
