/**
 * A lab rebuilt for another page retires its runs: the run going on stops,
 * and whatever still holds them (a "Check my solution" or an Explore of the
 * page the tab left) cannot start another run there, which the new page
 * would be shown as its own.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseCommand } from '@/lib/commands';
import type { RunEnded } from '@/lib/run';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import { startLab } from './lab-fixture';

let pool: SandboxPool;
beforeAll(async () => {
  pool = createSandboxPool({ warmWorkers: 1 });
  await pool.whenWarm();
});
afterAll(async () => {
  await pool?.close();
});

const LONG = `import lab from 'lab';\nfor (;;) await lab.sleep(50);\n`;

it("stops the run going on, and refuses the next one of the page left", async () => {
  const lab = await startLab();
  const runs = new LabRuns(lab, pool);
  const ended = new Promise<RunEnded>((resolve) => runs.once('ended', resolve));
  await runs.start(parseCommand('run:start', { code: LONG, clients: 1 }));
  await runs.retire();
  expect((await ended).outcome.status).toBe('stopped');
  await expect(runs.start(parseCommand('run:start', { code: LONG, clients: 1 }))).rejects.toMatchObject({ code: 'conflict' });
});
