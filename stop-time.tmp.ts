import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
import { loadAllLessons } from '@/lib/lessons/load';
import { Lab } from '@/server/lab/lab';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool } from '@/server/sandbox';
import { adversaryRun } from '@/server/grading/grading-plan';
const lesson = loadAllLessons().find((l) => l.slug === 'choosing-a-lock')!;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-'));
const lab = new Lab({ topology: lesson.topology, clients: 5, dir });
const pool = createSandboxPool({ warmWorkers: 1 });
await lab.start(); await pool.whenWarm();
const runs = new LabRuns(lab, pool);
const ms = (t: number) => Math.round(performance.now() - t);
for (const id of ['crash-mid-report', 'read-before-lock']) {
  const a = lesson.adversaries.find((x) => x.id === id)!;
  const p = adversaryRun(lesson, a, lesson.solution);
  if (!p.program.ok) throw new Error();
  for (let i = 0; i < 3; i++) {
    let t = performance.now();
    const info = await runs.start({ code: p.program.code, scenario: p.scenario, topology: lesson.topology, fresh: true, checker: p.checker });
    const tStart = ms(t); t = performance.now();
    const first = await new Promise<number>((res) => { const off = lab.history.subscribe((e) => { if (e.type === 'client' && e.runId === info.runId && e.event === 'start') { off(); res(ms(t)); } }); });
    await new Promise((r) => setTimeout(r, 1500));
    t = performance.now(); await runs.stop(); const tStop = ms(t);
    console.log(id, 'start()', tStart, 'ms; to first client', first, 'ms; stop', tStop, 'ms');
  }
}
await lab.destroy(); await pool.close(); fs.rmSync(dir, { recursive: true, force: true });
