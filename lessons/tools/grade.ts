/**
 * A lesson author's tool: "Check my solution" on the command line, against a
 * real lab. Grades the reference solution and every wrong answer of the
 * lesson's corpus (or the files given), and prints each verdict, the message
 * a learner would read, and the time it took.
 *
 *   LANES=3 [REPEAT=50] node --import tsx lessons/tools/grade.ts <folder> [solution|wrong|<file.ts> ...]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadLesson } from '@/lib/lessons/load';
import { gradeExercise } from '@/server/grading/grader';
import { Lab } from '@/server/lab/lab';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool } from '@/server/sandbox';

async function main(): Promise<void> {
  const [folder, ...which] = process.argv.slice(2);
  if (!folder) throw new Error('usage: grade.ts <folder> [solution|wrong|<file.ts> ...]');
  const lesson = loadLesson(path.resolve('lessons', folder));
  const wanted = which.length > 0 ? which : ['solution', 'wrong'];
  const programs: { name: string; code: string; right: boolean }[] = [];
  // REPEAT=50: grade the reference solution that many times (how often a right answer passes, here and now).
  const repeat = Math.max(1, Number(process.env.REPEAT ?? 1));
  for (const w of wanted) {
    if (w === 'solution') for (let i = 0; i < repeat; i++) programs.push({ name: repeat > 1 ? `solution #${i + 1}` : 'solution', code: lesson.solution, right: true });
    else if (w === 'wrong') programs.push(...lesson.wrong.map((x) => ({ name: `wrong/${x.name}`, code: x.code, right: false })));
    else programs.push({ name: w, code: fs.readFileSync(w, 'utf8'), right: !/^\/\/ Wrong:/.test(fs.readFileSync(w, 'utf8')) });
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-grade-'));
  const pool = createSandboxPool({ warmWorkers: 1 });
  await pool.whenWarm();
  const lab = new Lab({ topology: lesson.topology, clients: lesson.defaultClients, dir: path.join(root, 'lab') });
  await lab.start();
  // LANES=3: two spare labs beside the learner's, as the server lends them when it has room.
  const spareLabs = Array.from({ length: Math.max(0, Number(process.env.LANES ?? 1) - 1) }, (_, i) => new Lab({ topology: lesson.topology, clients: lesson.defaultClients, dir: path.join(root, `spare-${i}`) }));
  await Promise.all(spareLabs.map((l) => l.start()));
  let wrongVerdicts = 0;
  if (process.env.TRACE) {
    // TRACE=1: what each graded run did, in every lab, for the author tuning an adversary.
    [lab, ...spareLabs].forEach((l, i) =>
      l.history.subscribe((e) => {
        if (e.type === 'console' || e.type === 'job' || e.type === 'store' || e.type === 'lock' || (e.type === 'nemesis' && e.phase !== 'invoke') || (e.type === 'client' && e.event !== 'start'))
          console.log(`   [lab ${i}] ${Math.round(e.t)} ${JSON.stringify({ ...e, seq: undefined, t: undefined, runId: e.runId })}`);
      }),
    );
  }
  try {
    const runs = new LabRuns(lab, pool);
    const spares = spareLabs.map((l) => new LabRuns(l, pool));
    for (const p of programs) {
      const started = Date.now();
      const result = await gradeExercise(lesson, p.code, runs, undefined, spares);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = result.passed === p.right;
      if (!ok) wrongVerdicts++;
      console.log(`${ok ? 'ok  ' : 'MISS'} ${p.name}: ${result.passed ? 'passed' : 'rejected'} after ${result.runs.length}/${result.total} runs in ${seconds} s`);
      const last = result.runs.at(-1);
      if (result.failure) console.log(`       [${last?.hidden ? 'hidden ' : ''}${last?.probe ? 'probe' : 'scenario'} ${last?.scenarioId}] ${result.failure.message}`);
    }
  } finally {
    await Promise.all([lab, ...spareLabs].map((l) => l.destroy()));
    await pool.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
  process.exitCode = wrongVerdicts > 0 ? 1 : 0;
}

void main();
