/**
 * A lesson author's tool: runs one lesson's scenarios against real labs, a
 * few seeds each, and prints what the checker said next to what the front
 * matter expects. Not a test (the lead's fidelity run is); a quick way to
 * tune TTLs, pauses and job lengths while writing a lesson.
 *
 *   node --import tsx lessons/tools/try-lesson.ts <folder> [scenario-id|exercise|wrong] [runs]
 *   PROGRAM=answer.ts node --import tsx lessons/tools/try-lesson.ts <folder> exercise   # an answer of your own
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rootCause, unmetExpectation, type Verdict } from '@/lib/checker';
import { loadLesson, programSource, type Lesson } from '@/lib/lessons/load';
import type { Expectation } from '@/lib/lessons/schema';
import type { Scenario } from '@/lib/scenario';
import { Lab } from '@/server/lab/lab';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool } from '@/server/sandbox';
import type { RunEnded } from '@/lib/run';

type CheckerSettings = NonNullable<Lesson['checker']>;

interface Trial {
  label: string;
  code: string;
  scenario: Scenario;
  checker: CheckerSettings;
  expect: Expectation;
}

/** The fidelity run's own test (a break's diagnosis must be the root cause its headline names). */
export function meets(verdict: Verdict, expect: Expectation): boolean {
  return unmetExpectation(verdict, expect) === null;
}

async function runOnce(lesson: Lesson, trial: Trial, root: string, n: number): Promise<RunEnded> {
  const lab = new Lab({ topology: lesson.topology, clients: trial.scenario.clients, dir: path.join(root, `lab-${n}`) });
  await lab.start();
  const pool = createSandboxPool({ warmWorkers: 1 });
  await pool.whenWarm();
  const runs = new LabRuns(lab, pool);
  if (process.env.TRACE) {
    lab.history.subscribe((e) => {
      if (e.type === 'lock' || e.type === 'node' || e.type === 'job' || e.type === 'store' || (e.type === 'nemesis' && e.phase !== 'invoke') || (e.type === 'client' && e.event !== 'start'))
        console.log(`   ${Math.round(e.t)} ${JSON.stringify({ ...e, seq: undefined, t: undefined, runId: undefined })}`);
    });
  }
  try {
    const ended = new Promise<RunEnded>((resolve) => runs.once('ended', resolve));
    await runs.start({ code: trial.code, scenario: trial.scenario, checker: trial.checker });
    const result = await ended;
    if (process.env.DUMP) fs.writeFileSync(`${process.env.DUMP}-${n}.json`, JSON.stringify(lab.history.since(0)));
    return result;
  } finally {
    await pool.close();
    await lab.destroy();
  }
}

async function main(): Promise<void> {
  const [folder, which, count] = process.argv.slice(2);
  if (!folder) throw new Error('usage: try-lesson.ts <folder> [scenario-id|exercise|wrong] [runs]');
  const lesson = loadLesson(path.resolve('lessons', folder));
  const runsPerTrial = Number(count ?? 3);
  const trials: Trial[] = [];
  const settings = (extra?: CheckerSettings): CheckerSettings => ({ ...lesson.checker, ...extra });
  if (which === 'exercise' || which === 'wrong') {
    // PROGRAM=<file>: grade an answer of your own, as "Check my solution" would (expected to hold).
    const own = process.env.PROGRAM ? fs.readFileSync(process.env.PROGRAM, 'utf8') : null;
    const code = own ?? (which === 'exercise' ? lesson.solution : programSource(lesson, lesson.exercise.knownWrong));
    for (const id of lesson.exercise.scenarios) {
      const s = lesson.lessonScenarios.find((x) => x.id === id);
      if (!s) continue;
      for (const seed of lesson.exercise.seeds) {
        trials.push({
          label: `${which} ${id} seed ${seed}`,
          code,
          scenario: { ...s.scenario, seed },
          checker: settings({ ...s.checker, livenessBoundMs: lesson.exercise.liveness.boundMs }),
          expect: { verdict: which === 'exercise' ? 'held' : 'violated' },
        });
      }
    }
  } else {
    for (const s of lesson.lessonScenarios) {
      if (which && s.id !== which) continue;
      for (let i = 0; i < runsPerTrial; i++) {
        trials.push({ label: `${s.id} seed ${s.scenario.seed + i}`, code: s.code, scenario: { ...s.scenario, seed: s.scenario.seed + i }, checker: settings(s.checker), expect: s.expect });
      }
    }
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-try-'));
  let n = 0;
  try {
    for (const trial of trials) {
      const started = performance.now();
      const ended = await runOnce(lesson, trial, root, n++);
      const v = ended.verdict;
      const ok = meets(v, trial.expect);
      const checks = Object.values(v.checks)
        .filter((c) => c.applicable)
        .map((c) => `${c.check}=${c.valid}`)
        .join(' ');
      const kinds = v.diagnoses.map((d) => `${d.kind}×${d.occurrences}`).join(',');
      const errors = ended.outcome.clients.filter((c) => c.error).map((c) => `C${c.client}:${c.error}`).join(' | ');
      console.log(
        `${ok ? 'OK  ' : 'MISS'} ${trial.label}: ${v.valid} [${checks}] {${kinds}} fenced=${v.savedByFencing.count} ` +
          `jobs=${v.stats.jobs.map((j) => `${j.job}:${j.completed}/${j.incomplete}`).join(',')} ${Math.round(performance.now() - started)}ms ${ended.outcome.status}${errors ? ' ' + errors : ''}`,
      );
      if (!ok && v.counterExample) console.log(`      ${v.counterExample.message}`);
      const cause = rootCause(v);
      if (cause) console.log(`      root cause: ${cause.message}`);
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

// The lab's own timers, workers and link process do not hold a process open (a server's listener does); this
// tool has no listener, so it holds itself open until its runs are done.
const keepAlive = setInterval(() => undefined, 60_000);
// Exit once stdout has drained: piped output is written asynchronously and process.exit would cut it.
main().finally(() => clearInterval(keepAlive)).then(
  () => process.stdout.write('', () => process.exit(0)),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
