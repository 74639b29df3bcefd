/**
 * `npm run fidelity`: every lesson's "Break it" 100 times and "Fix it" 200
 * times (seeds 1…N), headless against real labs, and a table of how often
 * each showed what it promises. Goal: breaks confirmed in ≥ 95 % of runs,
 * fixes held in every run.
 *
 *   npm run fidelity -- [--break 100] [--fix 200] [--lesson <slug>[,<slug>…]] [--scenario <id>] [--parallel 2]
 *
 * A scenario's seeds are split into chunks, each in a lab of its own, so the
 * lanes stay busy to the end instead of waiting on the longest scenario.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadAllLessons } from '@/lib/lessons/load';
import { seedsFrom, trialScenario, type TrialResult } from '@/server/grading/fidelity';
import { createSandboxPool } from '@/server/sandbox';
import { defaultRunRoot, instanceDir, killNodesUnder, removeLeftovers } from '@/server/cluster/run-dir';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}
const named = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const only = named('lesson');
const onlyScenario = named('scenario');
const CHUNK = 25;
const counts = { break: option('break', 100), fix: option('fix', 200) };
const parallel = option('parallel', 2);

const onlyLessons = only?.split(',');
const lessons = loadAllLessons().filter((l) => !onlyLessons || onlyLessons.includes(l.slug));
const scenarios = lessons.flatMap((lesson) =>
  lesson.lessonScenarios
    .filter((s) => s.role !== 'explore' && (!onlyScenario || s.id === onlyScenario))
    .map((entry) => ({ lesson, entry, count: counts[entry.role as 'break' | 'fix'] })),
);
const jobs = scenarios.flatMap(({ lesson, entry, count }) =>
  Array.from({ length: Math.ceil(count / CHUNK) }, (_, i) => ({ lesson, entry, seeds: seedsFrom(1 + i * CHUNK, Math.min(CHUNK, count - i * CHUNK)), chunk: i })),
);
if (jobs.length === 0) throw new Error('no scenario matches --lesson / --scenario');
// The lab server's run-folder layout: leftovers of a fidelity run that was SIGKILLed are ended by the next start of either.
const root = defaultRunRoot();
removeLeftovers(root);
const dir = instanceDir(root);
fs.mkdirSync(dir, { recursive: true });
/** Ends this run's own nodes (by their PID files) and removes its folder: on Ctrl-C, and after a trial fails outright. */
const cleanUp = () => {
  killNodesUnder(dir);
  fs.rmSync(dir, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
const pool = createSandboxPool({ warmWorkers: parallel });
await pool.whenWarm();
const started = performance.now();
const byScenario = new Map<string, TrialResult>();
let next = 0;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let job = jobs[next++]; job; job = jobs[next++]) {
      // A trial that throws (the lab itself failed) counts its seeds not yet run as misses, and the other lanes go on.
      let done = { runs: 0, met: 0 };
      const r: TrialResult = await trialScenario(job.lesson, job.entry, job.seeds, pool, path.join(dir, `chunk-${job.chunk}`), (_ended, _seed, why) => {
        done = { runs: done.runs + 1, met: done.met + (why === null ? 1 : 0) };
      }).catch((error: unknown) => ({
        lesson: job.lesson.slug,
        scenario: job.entry.id,
        role: job.entry.role,
        runs: job.seeds.length,
        met: done.met,
        misses: [{ seed: job.seeds[done.runs] ?? job.seeds[0]!, why: `the trial failed: ${(error as Error).message}` }],
      }));
      const key = `${r.lesson}/${r.scenario}`;
      const sum = byScenario.get(key);
      if (sum) {
        sum.runs += r.runs;
        sum.met += r.met;
        sum.misses.push(...r.misses.slice(0, 5 - sum.misses.length));
      } else byScenario.set(key, r);
      const seeds = `seeds ${job.seeds[0]}–${job.seeds.at(-1)}`;
      console.log(`  ${r.lesson} / ${r.scenario} (${r.role}, ${seeds}): ${r.met}/${r.runs}${r.misses.length ? ` — e.g. seed ${r.misses[0]!.seed}: ${r.misses[0]!.why}` : ''}`);
    }
  }),
);
await pool.close();
cleanUp();

const order = new Map(scenarios.map((j, i) => [`${j.lesson.slug}/${j.entry.id}`, i]));
const results = [...byScenario.values()].sort(
  (a, b) => (order.get(`${a.lesson}/${a.scenario}`) ?? 0) - (order.get(`${b.lesson}/${b.scenario}`) ?? 0),
);
const goalMet = (r: TrialResult) => (r.role === 'fix' ? r.met === r.runs : r.met / r.runs >= 0.95);
console.log(`\n### Fidelity (${((performance.now() - started) / 60_000).toFixed(1)} min)\n`);
console.log('| lesson | scenario | role | confirmed | rate | goal | met |');
console.log('|---|---|---|---|---|---|---|');
for (const r of results)
  console.log(`| ${r.lesson} | ${r.scenario} | ${r.role} | ${r.met}/${r.runs} | ${((100 * r.met) / r.runs).toFixed(1)} % | ${r.role === 'fix' ? '100 %' : '≥ 95 %'} | ${goalMet(r) ? 'yes' : 'NO'} |`);
process.exit(results.every(goalMet) ? 0 : 1);
