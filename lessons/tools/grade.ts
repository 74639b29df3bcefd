/**
 * A lesson author's tool: "Check my solution" on the command line, against a
 * real lab. Grades the reference solution and every wrong answer of the
 * lesson's corpus (or the files given), and prints each verdict, the message
 * a learner would read, and the time it took.
 *
 *   LANES=3 [REPEAT=50] node --import tsx lessons/tools/grade.ts [--locale ar|nb] <folder> [solution|wrong|<file.ts> ...]
 *
 * With --locale, the message is printed in that language too, as the page in it shows it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadLesson } from '@/lib/lessons/load';
import { CPU_WAIT_LIMIT_MS } from '@/server/grading/disturbance';
import { gradeExercise } from '@/server/grading/grader';
import { withLessonLabs } from './lab-lanes';
import { isLocale, LOCALES } from '@/i18n/routing';
import { composeWrongAnswer } from '@/lib/lessons/wrong-answers';
import { render } from '@/lib/words';
import { catalogueOf } from '@/messages/read-catalogue';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--locale');
  const locale = at >= 0 ? args.splice(at, 2)[1] : 'en';
  if (!locale || !isLocale(locale)) throw new Error(`--locale: one of ${LOCALES.join(', ')}`);
  const [folder, ...which] = args;
  if (!folder) throw new Error('usage: grade.ts <folder> [solution|wrong|<file.ts> ...]');
  const lesson = loadLesson(path.resolve('lessons', folder));
  const wanted = which.length > 0 ? which : ['solution', 'wrong'];
  const programs: { name: string; code: string; right: boolean }[] = [];
  // REPEAT=50: grade the reference solution that many times (how often a right answer passes, here and now).
  const repeat = Math.max(1, Number(process.env.REPEAT ?? 1));
  for (const w of wanted) {
    if (w === 'solution') for (let i = 0; i < repeat; i++) programs.push({ name: repeat > 1 ? `solution #${i + 1}` : 'solution', code: lesson.solution, right: true });
    else if (w === 'wrong') programs.push(...lesson.wrong.map((x) => ({ name: `wrong/${x.name}`, code: x.code, right: false })));
    else {
      // A file that says its mistake is a wrong answer: its declarations over the solution, as the lesson loads one.
      const text = fs.readFileSync(w, 'utf8');
      const wrong = /^\/\/ Wrong:/.test(text);
      programs.push({ name: w, code: wrong ? composeWrongAnswer(lesson.solution, text) : text, right: !wrong });
    }
  }
  let wrongVerdicts = 0;
  let undecided = 0;
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
    if (process.env.PLAN) {
      // PLAN=1: each graded run as it starts and ends, with its lab and time, to see which items a check waits on.
      const t0 = Date.now();
      const at = () => ((Date.now() - t0) / 1000).toFixed(1).padStart(6);
      [runs!, ...spares].forEach((lane, i) => {
        const begun = new Map<string, { id: string; ms: number }>();
        lane.on('started', (info) => begun.set(info.runId, { id: info.scenario?.id ?? '?', ms: Date.now() }));
        lane.on('ended', (e) => {
          const b = begun.get(e.runId);
          console.log(`   ${at()} s [lab ${i}] ${b?.id} ${e.outcome.status} in ${((Date.now() - (b?.ms ?? 0)) / 1000).toFixed(1)} s`);
        });
      });
    }
    // How long each graded run's processes waited for a CPU (a busy machine shows here; see grading/disturbance.ts).
    const waits: number[] = [];
    for (const lane of [runs!, ...spares]) lane.on('ended', (e) => waits.push(e.cpuWaitMs ?? 0));
    const waitSummary = () => {
      const sorted = [...waits].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
      return `CPU wait per run (worst second): median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms over ${sorted.length} runs; ${sorted.filter((w) => w >= CPU_WAIT_LIMIT_MS).length} disturbed (≥ ${CPU_WAIT_LIMIT_MS} ms)`;
    };
    process.once('beforeExit', () => console.log(waitSummary()));
    for (const p of programs) {
      const started = Date.now();
      const result = await gradeExercise(lesson, p.code, runs!, undefined, spares, undefined, undefined, locale);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      // "Too busy to tell" is neither verdict: not a miss, but counted, so a busy machine shows.
      const ok = result.busy !== undefined || result.passed === p.right;
      if (!ok) wrongVerdicts++;
      if (result.busy) undecided++;
      const verdictWord = result.busy ? 'not decided (machine too busy)' : result.passed ? 'passed' : 'rejected';
      console.log(`${ok ? (result.busy ? 'busy' : 'ok  ') : 'MISS'} ${p.name}: ${verdictWord} after ${result.runs.length}/${result.total} runs in ${seconds} s`);
      const last = result.runs.at(-1);
      if (result.failure) console.log(`       [${last?.hidden ? 'hidden ' : ''}${last?.probe ? 'probe' : 'scenario'} ${last?.scenarioId}] ${result.failure.message}`);
      if (result.failure && locale !== 'en') {
        const { failure } = result;
        const said = failure.words ? render(failure.words, locale, catalogueOf(locale)) : (failure.shown ?? failure.message);
        console.log(`       ${locale}: «${last?.scenarioTitle}» ${said}\n       ${locale} hint: ${failure.hint ?? ''}`);
      }
    }
  });
  console.log(`${programs.length} checks: ${wrongVerdicts} wrong verdicts, ${undecided} not decided`);
  process.exitCode = wrongVerdicts > 0 ? 1 : 0;
}

void main();
