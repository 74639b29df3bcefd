/**
 * For the author tools: `LANES` real labs of a lesson's topology (the learner's and its spares, as the server
 * lends them), one sandbox pool, and everything ended and removed afterwards, however the work ends.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Lesson } from '@/lib/lessons/load';
import { Lab } from '@/server/lab/lab';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool } from '@/server/sandbox';

export async function withLessonLabs<T>(lesson: Lesson, lanes: number, use: (runs: LabRuns[], labs: Lab[]) => Promise<T>): Promise<T> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locklab-tool-'));
  const pool = createSandboxPool({ warmWorkers: 1 });
  await pool.whenWarm();
  const labs = Array.from({ length: Math.max(1, lanes) }, (_, i) => new Lab({ topology: lesson.topology, clients: lesson.defaultClients, dir: path.join(root, `lab-${i}`) }));
  try {
    await Promise.all(labs.map((l) => l.start()));
    return await use(
      labs.map((l) => new LabRuns(l, pool)),
      labs,
    );
  } finally {
    await Promise.all(labs.map((l) => l.destroy()));
    await pool.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
