/** A run as a file: recorded, parsed back, refused when it is not one, re-checked without a lab. */
import { describe, expect, it } from 'vitest';
import { emptyRunData, reduceRunStarted, reduceRunRequested } from '@/components/lab/run-state';
import { parseRunFile, recheck, recordRun, runFileName, runHistory } from '@/components/workspace/run-file';
import { history } from './helpers/history-builder';

const events = history().at(500).node(1, 'down').at(1_000).enter(1).at(1_010).enter(2).at(1_200).exit(1).at(1_300).exit(2).build();
const run = reduceRunStarted(reduceRunRequested(emptyRunData(), { code: 'await lab.job().run(1)', scenario: null, checker: null }), {
  runId: 'run-7',
  clients: 2,
  scenario: null,
  seed: 7,
  startedAt: 1_000,
});

describe('run files', () => {
  it('records the run from its start, with its code, and reads it back', () => {
    const recorded = recordRun({ lesson: 'redlock', run, history: events, now: new Date('2026-01-02T03:04:05.678Z') });
    expect(recorded.history.map((e) => e.t)).toEqual([1_000, 1_010, 1_200, 1_300]);
    expect(runFileName(recorded)).toBe('lock-lab-redlock-2026-01-02T03-04-05-678.json');
    const parsed = parseRunFile(JSON.stringify(recorded));
    expect(parsed.ok && parsed.run.code).toBe('await lab.job().run(1)');
    expect(parsed.ok && parsed.run.history).toHaveLength(4);
  });

  it('opens a run in which the lab stepped in on a node', () => {
    const guard = { seq: 99, t: 1_250, type: 'guard', node: 1, action: 'script-killed', cause: 'busy-script', detail: 'Script stopped' } as const;
    const recorded = recordRun({ lesson: 'x', run, history: [...events, guard] });
    const parsed = parseRunFile(JSON.stringify(recorded));
    expect(parsed.ok && parsed.run.history.map((e) => e.type)).toContain('guard');
  });

  it('re-checks a recorded run in the browser', () => {
    const recorded = recordRun({ lesson: 'x', run, history: events });
    const verdict = recheck(recorded);
    expect(verdict.valid).toBe('violated');
    expect(verdict.final).toBe(true);
    expect(verdict.counterExample?.window.from).toBeGreaterThanOrEqual(1_000);
  });

  it('refuses what is not a run, saying why', () => {
    expect(parseRunFile('not json')).toMatchObject({ ok: false, message: expect.stringContaining('not JSON') });
    expect(parseRunFile('{"hello":1}')).toMatchObject({ ok: false, message: expect.stringContaining('not a run') });
    expect(parseRunFile('{"format":"lock-lab-run","version":2,"history":[]}')).toMatchObject({ ok: false, message: expect.stringContaining('version 2') });
    const bad = JSON.stringify({ format: 'lock-lab-run', version: 1, history: [{ seq: 0, t: 0, type: 'alien' }] });
    expect(parseRunFile(bad)).toMatchObject({ ok: false, message: expect.stringContaining('1 events') });
  });

  it('keeps the whole history when no run started', () => {
    expect(runHistory(events, null)).toHaveLength(events.length);
  });
});

describe('the playground lesson', () => {
  it('has scenarios that are valid as the server will parse them', async () => {
    const { scenarioSchema } = await import('@/lib/scenario');
    const { PLAYGROUND_LESSON } = await import('@/components/playground/playground-lesson');
    for (const scenario of PLAYGROUND_LESSON.scenarios) expect(scenarioSchema.parse(scenario)).toEqual(scenario);
  });
});
