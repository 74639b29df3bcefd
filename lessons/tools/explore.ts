/**
 * A lesson author's tool: "Explore" on the command line, against real labs.
 * Searches the lesson's fault space for a schedule that breaks a program (the
 * reference solution by default: it must find none), shrinks what it finds,
 * and prints the minimal schedule.
 *
 *   LANES=3 BUDGET=30 SEED=1 node --import tsx lessons/tools/explore.ts <folder> [solution|<file.ts> ...]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadLesson } from '@/lib/lessons/load';
import { explore } from '@/server/grading/explore';
import { Lab } from '@/server/lab/lab';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool } from '@/server/sandbox';

async function main(): Promise<void> {
  const [folder, ...which] = process.argv.slice(2);
  if (!folder) throw new Error('usage: explore.ts <folder> [solution|<file.ts> ...]');
  const lesson = loadLesson(path.resolve('lessons', folder));
  const programs = (which.length > 0 ? which : ['solution']).map((w) => ({ name: w, code: w === 'solution' ? lesson.solution : fs.readFileSync(w, 'utf8') }));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-explore-'));
  const pool = createSandboxPool({ warmWorkers: 1 });
  await pool.whenWarm();
  const labs = Array.from({ length: Math.max(1, Number(process.env.LANES ?? 3)) }, (_, i) => new Lab({ topology: lesson.topology, clients: 3, dir: path.join(root, `lab-${i}`) }));
  await Promise.all(labs.map((l) => l.start()));
  try {
    const [own, ...spares] = labs.map((l) => new LabRuns(l, pool));
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
  } finally {
    await Promise.all(labs.map((l) => l.destroy()));
    await pool.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main();
