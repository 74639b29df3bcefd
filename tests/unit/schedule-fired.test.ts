/** A counter-example tells only what its run did: a step aimed at a moment the run never had is not in its lines. */
import { describe, expect, it } from 'vitest';
import { scenarioSchema, type Scenario } from '@/lib/scenario';
import { describeSchedule, firedSteps } from '@/lib/schedules';
import { history } from './helpers/history-builder';

const schedule = (nth: number): Scenario =>
  scenarioSchema.parse({
    id: 'random-1',
    title: 'a random schedule',
    seed: 1,
    clients: 2,
    steps: [
      { at: 445, when: { on: 'job-enter', client: 2, nth }, action: 'client-pause', client: 1, durationMs: 300 },
      { at: 100, when: { on: 'job-enter', client: 1, nth }, action: 'node-kill', node: 1 },
      { at: 900, when: { on: 'job-enter', client: 1, nth }, action: 'node-restart', node: 1 },
      { at: 50, action: 'link-delay', client: 1, node: 2, delayMs: 80 },
    ],
  });

// Each client runs its job twice.
const twice = history().at(0).enter(1).at(20).exit(1).at(30).enter(2).at(40).exit(2).at(50).enter(1).at(60).exit(1).at(70).enter(2).at(80).exit(2).build();

/** How often a client entered its job in the history: what a line's "for the nth time" may claim at most. */
const entries = (client: number) => twice.filter((e) => e.type === 'job' && e.phase === 'enter' && e.client === client).length;

describe('firedSteps', () => {
  it('keeps every step whose moment came, and says it as before', () => {
    const s = schedule(2);
    expect(firedSteps(s, twice)).toBe(s);
    expect(describeSchedule(firedSteps(s, twice)).join('\n')).toContain('for the 2nd time');
  });

  it('drops a fault aimed at the 3rd entry of a client that entered twice, with the recovery that undid it', () => {
    expect(entries(2)).toBe(2);
    const shown = firedSteps(schedule(3), twice);
    expect(shown.steps.map((s) => s.action)).toEqual(['link-delay']);
    const lines = describeSchedule(shown).join('\n');
    expect(lines).not.toMatch(/3rd time/);
    // Every "nth time" a line claims is at most what the history counts.
    for (const m of lines.matchAll(/Client (\d) enters its job for the (\d+)\w\w time/g)) expect(Number(m[2])).toBeLessThanOrEqual(entries(Number(m[1])));
  });
});
