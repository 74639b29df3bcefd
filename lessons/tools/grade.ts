/**
 * A lesson author's tool: "Check my solution" on the command line, against a
 * real lab. Grades the reference solution and every wrong answer of the
 * lesson's corpus (or the files given), and prints each verdict, the message
 * a learner would read, and the time it took.
 *
 *   LANES=3 [REPEAT=50] node --import tsx lessons/tools/grade.ts <folder> [solution|wrong|<file.ts> ...]
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadLesson } from '@/lib/lessons/load';
import { gradeExercise } from '@/server/grading/grader';
import { withLessonLabs } from './lab-lanes';

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
  let wrongVerdicts = 0;
  // LANES=3: two spare labs beside the learner's, as the server lends them when it has room.
  await withLessonLabs(lesson, Number(process.env.LANES ?? 1), async ([runs, ...spares], labs) => {
    if (process.env.TRACE) {
      // TRACE=1: what each graded run did, in every lab, for the author tuning an adversary.
      labs.forEach((l, i) =>
        l.history.subscribe((e) => {
          if (e.type === 'console' || e.type === 'job' || e.type === 'store' || e.type === 'lock' || (e.type === 'nemesis' && e.phase !== 'invoke') || (e.type === 'client' && e.event !== 'start'))
            console.log(`   [lab ${i}] ${Math.round(e.t)} ${JSON.stringify({ ...e, seq: undefined, t: undefined, runId: e.runId })}`);
        }),
      );
    }
    for (const p of programs) {
      const started = Date.now();
      const result = await gradeExercise(lesson, p.code, runs!, undefined, spares);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = result.passed === p.right;
      if (!ok) wrongVerdicts++;
      console.log(`${ok ? 'ok  ' : 'MISS'} ${p.name}: ${result.passed ? 'passed' : 'rejected'} after ${result.runs.length}/${result.total} runs in ${seconds} s`);
      const last = result.runs.at(-1);
      if (result.failure) console.log(`       [${last?.hidden ? 'hidden ' : ''}${last?.probe ? 'probe' : 'scenario'} ${last?.scenarioId}] ${result.failure.message}`);
    }
  });
  process.exitCode = wrongVerdicts > 0 ? 1 : 0;
}

void main();
