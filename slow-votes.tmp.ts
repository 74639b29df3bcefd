import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
import { loadAllLessons } from '@/lib/lessons/load';
import { Lab } from '@/server/lab/lab';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool } from '@/server/sandbox';
import { adversaryRun } from '@/server/grading/grading-plan';
import { judge } from '@/server/grading/judge';
const lesson = loadAllLessons().find((l) => l.slug === 'redlock')!;
const a = lesson.adversaries.find((x) => x.id === 'acquire-slow-votes')!;
const wrong = lesson.wrong.find((w) => w.name === 'validity-ignores-elapsed')!;
const p = adversaryRun(lesson, a, wrong.code);
if (!p.program.ok) throw new Error();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sv-'));
const lab = new Lab({ topology: lesson.topology, clients: 1, dir });
const pool = createSandboxPool({ warmWorkers: 1 });
await lab.start(); await pool.whenWarm();
const runs = new LabRuns(lab, pool);
for (let i = 0; i < 40; i++) {
  const info = await runs.start({ code: p.program.code, scenario: { ...p.scenario, seed: 100 + i }, topology: lesson.topology, fresh: true, checker: p.checker });
  const ended = await runs.whenEnded(info.runId);
  const failed = judge(p, ended, 1, () => runs.historyOf(info.runId), info.startedAt);
  if (failed === null) {
    console.log('MISS at', i, 'cpu', ended.cpuWaitMs);
    for (const e of runs.historyOf(info.runId)) if (e.type === 'redis' || e.type === 'console' || e.type === 'nemesis' || e.type === 'client') console.log(Math.round(e.t - info.startedAt), JSON.stringify({ ...e, t: undefined, seq: undefined, runId: undefined }).slice(0, 200));
    break;
  } else process.stdout.write('.');
}
await lab.destroy(); await pool.close(); fs.rmSync(dir, { recursive: true, force: true });
