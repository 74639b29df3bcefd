/**
 * Every lesson's "Do it yourself" task, done as its steps say, against real redis-servers: the run (the break
 * scenario without the learner's faults) stops at the suggested breakpoint, the learner's faults go in through
 * applyFault as the buttons' do, Resume, and the attribution must credit one of those faults with the lesson's
 * violation. A task a learner following its steps cannot complete fails here, naming the lesson.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { attributeBreak } from '@/lib/do-it-yourself/attribute';
import { handScenario } from '@/lib/do-it-yourself/task';
import type { FaultOp } from '@/lib/faults/catalogue';
import { FAULT_INPUTS, type FaultInput } from '@/lib/faults/inputs';
import { loadAllLessons, programSource } from '@/lib/lessons/load';
import { Lab } from '@/server/lab/lab';
import { applyFault } from '@/server/nemesis/operations';
import { LabRuns } from '@/server/runs/lab-runs';
import { createSandboxPool } from '@/server/sandbox';

const lessons = loadAllLessons(path.join(process.cwd(), 'lessons')).filter((l) => l.doItYourself);

describe('every lesson’s Do it yourself task can be completed by following its steps', () => {
  it('has tasks', () => expect(lessons.length).toBeGreaterThan(0));
  for (const lesson of lessons) {
    it(`lesson ${lesson.order} (${lesson.slug})`, { timeout: 240_000 }, async () => {
      const task = lesson.doItYourself!;
      const ref = lesson.scenarios.find((s) => s.id === task.scenario)!;
      const scenario = lesson.lessonScenarios.find((s) => s.id === task.scenario)!.scenario;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `locklab-diy-${lesson.slug}-`));
      const pool = createSandboxPool({ warmWorkers: 1 });
      const lab = new Lab({ topology: lesson.topology, clients: scenario.clients, dir });
      try {
        await lab.start();
        const runs = new LabRuns(lab, pool);
        await pool.whenWarm();
        /** The task done once, as its steps say: how the lab attributes the run's break. */
        const attempt = async () => {
          await lab.restore();
          const info = await runs.start({ code: programSource(lesson, ref.program), scenario: handScenario(scenario, task.byHand), checker: { ...lesson.checker, ...ref.checker }, breakpoint: task.breakpoint });
          const stopped = () => runs.historyOf(info.runId).some((e) => e.type === 'console' && e.client === 0 && e.words?.key === 'runNotes.breakpointHit');
          await expect.poll(stopped, { timeout: 30_000 }).toBe(true);
          for (const fault of task.byHand) {
            const { action, ...target } = fault;
            const input = (FAULT_INPUTS[action] as { parse(v: unknown): unknown }).parse(target) as FaultInput<FaultOp>;
            await applyFault(action, { lab, clients: runs.current }, input);
          }
          runs.setBreakpoint(null);
          runs.continueFromBreakpoint(false);
          const ended = await runs.whenEnded(info.runId);
          const said = attributeBreak({ history: lab.history.since(0), verdict: ended.verdict, runId: info.runId, startedAt: info.startedAt, diagnosis: ref.expect.diagnosis! });
          return { said, ended };
        };
        // Lesson 3's lock lives 900 ms while every client stands at the breakpoint. A test on a loaded machine can
        // take longer than that to put its fault in, and the lock then runs out at the stop — which the lab rightly
        // does not credit ("ran-out-at-breakpoint"). That, and only that, is done again, at most twice more.
        let { said, ended } = await attempt();
        for (let again = 0; again < 2 && said.outcome === 'ran-out-at-breakpoint'; again++) ({ said, ended } = await attempt());
        expect({ outcome: said.outcome, diagnoses: ended.verdict.diagnoses.map((d) => d.kind) }).toMatchObject({ outcome: 'done' });
        expect(said.fault?.op).toBe(task.byHand[task.byHand.length - 1]!.action);
      } finally {
        await lab.destroy();
        await pool.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
