/**
 * A lesson author's tool: "Explore" on the command line, against real labs.
 * Searches the lesson's fault space for a schedule that breaks a program (the
 * reference solution by default: it must find none), shrinks what it finds,
 * and prints the minimal schedule.
 *
 *   LANES=3 BUDGET=30 SEED=1 node --import tsx lessons/tools/explore.ts <folder> [solution|<file.ts> ...]
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadLesson } from '@/lib/lessons/load';
import { explore } from '@/server/grading/explore';
import { withLessonLabs } from './lab-lanes';

async function main(): Promise<void> {
  const [folder, ...which] = process.argv.slice(2);
  if (!folder) throw new Error('usage: explore.ts <folder> [solution|<file.ts> ...]');
  const lesson = loadLesson(path.resolve('lessons', folder));
  const programs = (which.length > 0 ? which : ['solution']).map((w) => ({ name: w, code: w === 'solution' ? lesson.solution : fs.readFileSync(w, 'utf8') }));
  await withLessonLabs(lesson, Number(process.env.LANES ?? 3), async ([own, ...spares]) => {
    for (const p of programs) {
      const result = await explore(
        { code: p.code, topology: lesson.topology, checker: lesson.checker, space: lesson.explore },
        own!,
        spares,
        { seconds: Number(process.env.BUDGET ?? 30), seed: Number(process.env.SEED ?? 1) },
      );
      if (!result.found) console.log(`${p.name}: no violation in ${result.schedules} schedules (${result.seconds} s)`);
      else {
        console.log(`${p.name}: BROKEN after ${result.schedules} schedules; shrunk ${result.faultsBefore} → ${result.faultsAfter} faults in ${result.shrinkRuns} tries (${result.seconds} s, schedule seed ${result.scheduleSeed})`);
        for (const line of result.lines) console.log(`   - ${line}`);
        console.log(`   ${result.message}${result.onTimeline ? '' : ' [did not break again in the replays: timing-dependent]'}`);
      }
    }
  });
}

void main();
