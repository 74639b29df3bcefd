/**
 * `npm run fidelity`: every lesson's "Break it" 100 times and "Fix it" 200
 * times (seeds 1…N), headless against real labs, and a table of how often
 * each showed what it promises. Goal: breaks confirmed in ≥ 95 % of runs,
 * fixes held in every run.
 *
 *   npm run fidelity -- [--break 100] [--fix 200] [--lesson <slug>] [--parallel 2]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAllLessons } from '@/lib/lessons/load';
import { seedsFrom, trialScenario, type TrialResult } from '@/server/grading/fidelity';
import { createSandboxPool } from '@/server/sandbox';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}
const only = (() => {
  const i = process.argv.indexOf('--lesson');
  return i >= 0 ? process.argv[i + 1] : undefined;
})();
const counts = { break: option('break', 100), fix: option('fix', 200) };
const parallel = option('parallel', 2);

const lessons = loadAllLessons().filter((l) => !only || l.slug === only);
const jobs = lessons.flatMap((lesson) =>
  lesson.lessonScenarios.filter((s) => s.role !== 'explore').map((entry) => ({ lesson, entry, count: counts[entry.role as 'break' | 'fix'] })),
);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-fidelity-'));
const pool = createSandboxPool({ warmWorkers: parallel });
await pool.whenWarm();
const started = performance.now();
const results: TrialResult[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let job = jobs[next++]; job; job = jobs[next++]) {
      const r = await trialScenario(job.lesson, job.entry, seedsFrom(1, job.count), pool, dir);
      results.push(r);
      console.log(`  ${r.lesson} / ${r.scenario} (${r.role}): ${r.met}/${r.runs}${r.misses.length ? ` — e.g. seed ${r.misses[0]!.seed}: ${r.misses[0]!.why}` : ''}`);
    }
  }),
);
await pool.close();
fs.rmSync(dir, { recursive: true, force: true });

const order = new Map(jobs.map((j, i) => [`${j.lesson.slug}/${j.entry.id}`, i]));
results.sort((a, b) => (order.get(`${a.lesson}/${a.scenario}`) ?? 0) - (order.get(`${b.lesson}/${b.scenario}`) ?? 0));
const goalMet = (r: TrialResult) => (r.role === 'fix' ? r.met === r.runs : r.met / r.runs >= 0.95);
console.log(`\n### Fidelity (${((performance.now() - started) / 60_000).toFixed(1)} min)\n`);
console.log('| lesson | scenario | role | confirmed | rate | goal | met |');
console.log('|---|---|---|---|---|---|---|');
for (const r of results)
  console.log(`| ${r.lesson} | ${r.scenario} | ${r.role} | ${r.met}/${r.runs} | ${((100 * r.met) / r.runs).toFixed(1)} % | ${r.role === 'fix' ? '100 %' : '≥ 95 %'} | ${goalMet(r) ? 'yes' : 'NO'} |`);
process.exit(results.every(goalMet) ? 0 : 1);
