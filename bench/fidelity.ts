/**
 * `npm run fidelity`: every lesson's "Break it" 100 times and "Fix it" 200
 * times (seeds 1…N), headless against real labs, and a table of how often
 * each showed what it promises. Goal: breaks confirmed in ≥ 95 % of runs,
 * fixes held in every run. A break is confirmed when its verdict is violated
 * as expected and its expected diagnosis is the root cause the headline
 * names (server/grading/fidelity.ts → unmetExpectation).
 *
 *   npm run fidelity -- [--break 100] [--fix 200] [--lesson <slug>[,<slug>…]] [--scenario <id>] [--parallel 2] [--only scenarios|adversaries]
 *
 * Each exercise's adversaries are held to the same goals: the reference
 * solution passes every run of each ("fix"), and each wrong answer an
 * adversary is aimed at (`breaks` in its file) fails in ≥ 95 % ("break").
 *
 * A scenario's seeds are split into chunks, each in a lab of its own, so the
 * lanes stay busy to the end instead of waiting on the longest scenario.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadAllLessons, type Lesson } from '@/lib/lessons/load';
import { seedsFrom, trialAdversary, trialScenario, type TrialResult } from '@/server/grading/fidelity';
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

const onlyKind = named('only');
const onlyLessons = only?.split(',');
const lessons = loadAllLessons().filter((l) => !onlyLessons || onlyLessons.includes(l.slug));

/** A scenario or an adversary × program, with its role and how many seeds it runs. */
interface Trial {
  key: string;
  lesson: Lesson;
  label: string;
  role: 'break' | 'fix';
  count: number;
  play(seeds: number[], dir: string, onRun: (met: boolean) => void): Promise<TrialResult>;
}
const scenarioTrials: Trial[] = lessons.flatMap((lesson) =>
  lesson.lessonScenarios
    .filter((s) => s.role !== 'explore' && (!onlyScenario || s.id === onlyScenario))
    .map((entry) => ({
      key: `${lesson.slug}/${entry.id}`,
      lesson,
      label: entry.id,
      role: entry.role as 'break' | 'fix',
      count: counts[entry.role as 'break' | 'fix'],
      play: (seeds, dir, onRun) => trialScenario(lesson, entry, seeds, pool, dir, (_ended, _seed, why) => onRun(why === null)),
    })),
);
const adversaryTrials: Trial[] = lessons.flatMap((lesson) =>
  lesson.adversaries
    .filter((a) => !onlyScenario || a.id === onlyScenario)
    .flatMap((adversary) => [
      { name: 'solution', code: lesson.solution, role: 'fix' as const },
      ...adversary.breaks.map((name) => ({ name, code: lesson.wrong.find((w) => w.name === name)?.code ?? '', role: 'break' as const })),
    ].map((program) => ({
      key: `${lesson.slug}/${adversary.id} × ${program.name}`,
      lesson,
      label: `${adversary.id} × ${program.name}`,
      role: program.role,
      count: counts[program.role],
      play: (seeds: number[], dir: string) => trialAdversary(lesson, adversary, program, program.role, seeds, pool, dir),
    }))),
);
const trials = [...(onlyKind === 'adversaries' ? [] : scenarioTrials), ...(onlyKind === 'scenarios' ? [] : adversaryTrials)];
const jobs = trials.flatMap((trial) =>
  Array.from({ length: Math.ceil(trial.count / CHUNK) }, (_, i) => ({ trial, seeds: seedsFrom(1 + i * CHUNK, Math.min(CHUNK, trial.count - i * CHUNK)), chunk: i })),
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
/*
 * The labs' processes, sockets and the pool's workers are unref'd (a server must be able to exit while they
 * linger), and a run may at some moment wait only on an unref'd timer — in the server its HTTP listener keeps
 * the process alive; here nothing would, and Node ended the command mid-trial with exit 13 ("unsettled
 * top-level await"; it hit redlock's acquire-minority every time). This interval is that listener's stand-in.
 */
const keepAlive = setInterval(() => undefined, 60_000);
const byScenario = new Map<string, TrialResult>();
let next = 0;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let job = jobs[next++]; job; job = jobs[next++]) {
      // A trial that throws (the lab itself failed) counts its seeds not yet run as misses, and the other lanes go on.
      let done = { runs: 0, met: 0 };
      const r: TrialResult = await job.trial.play(job.seeds, path.join(dir, `chunk-${job.chunk}`), (met) => {
        done = { runs: done.runs + 1, met: done.met + (met ? 1 : 0) };
      }).catch((error: unknown) => ({
        lesson: job.trial.lesson.slug,
        scenario: job.trial.label,
        role: job.trial.role,
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
        sum.replayed = (sum.replayed ?? 0) + (r.replayed ?? 0);
        sum.undecided = (sum.undecided ?? 0) + (r.undecided ?? 0);
      } else byScenario.set(key, r);
      const seeds = `seeds ${job.seeds[0]}–${job.seeds.at(-1)}`;
      console.log(`  ${r.lesson} / ${r.scenario} (${r.role}, ${seeds}): ${r.met}/${r.runs}${r.misses.length ? ` — e.g. seed ${r.misses[0]!.seed}: ${r.misses[0]!.why}` : ''}`);
    }
  }),
);
clearInterval(keepAlive);
await pool.close();
cleanUp();

const order = new Map(trials.map((t, i) => [t.key, i]));
const results = [...byScenario.values()].sort(
  (a, b) => (order.get(`${a.lesson}/${a.scenario}`) ?? 0) - (order.get(`${b.lesson}/${b.scenario}`) ?? 0),
);
// A seed left undecided (the machine kept the lab waiting every time it was played) is not a confirmation either.
const goalMet = (r: TrialResult) => (r.role === 'fix' ? r.met === r.runs && !r.undecided : r.met / r.runs >= 0.95);
console.log(`\n### Fidelity (${((performance.now() - started) / 60_000).toFixed(1)} min)\n`);
console.log('| lesson | scenario | role | confirmed | rate | goal | met | replayed (busy machine) |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of results)
  console.log(
    `| ${r.lesson} | ${r.scenario} | ${r.role} | ${r.met}/${r.runs} | ${((100 * r.met) / r.runs).toFixed(1)} % | ${r.role === 'fix' ? '100 %' : '≥ 95 %'} | ${goalMet(r) ? 'yes' : 'NO'} | ${r.replayed ?? '–'}${r.undecided ? `, ${r.undecided} undecided` : ''} |`,
  );
process.exit(results.every(goalMet) ? 0 : 1);
