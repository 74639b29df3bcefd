/**
 * "Do it yourself": the scenario's own faults are never the learner's (a step announces itself with a
 * `scenario` line before its operation), and every outcome is said in English, Arabic and Norwegian.
 */
import { describe, expect, it } from 'vitest';
import { attributeBreak, learnerFaults, stoodAtBreakpoints } from '@/lib/do-it-yourself/attribute';
import { check } from '@/lib/checker';
import { history as historyOf } from './helpers/history-builder';
import { goalKey } from '@/lib/do-it-yourself/task';
import { loadAllLessons } from '@/lib/lessons/load';
import type { HistoryEvent } from '@/lib/history';
import { duration, render, words, type Words } from '@/lib/words';
import { faultWords } from '@/lib/scenario-words';
import { catalogueOf } from './helpers/intl';

let seq = 0;
const at = <E extends Omit<HistoryEvent, 'seq'>>(e: E) => ({ ...e, seq: seq++ }) as unknown as HistoryEvent;
const kill = (node: number, phase: 'invoke' | 'ok', t: number) => at({ type: 'nemesis', op: 'node-kill', phase, target: `Node ${node}`, node, args: { node }, t });

describe('the learner’s faults', () => {
  it('leaves out the scenario’s steps and what came before the run', () => {
    const history = [
      kill(1, 'invoke', 5),
      kill(1, 'ok', 6),
      at({ type: 'client', event: 'start', client: 1, runId: 'r', t: 10 }),
      at({ type: 'scenario', step: 'node-kill', detail: 'kill Node 3', runId: 'r', t: 20 }),
      kill(3, 'invoke', 21),
      kill(3, 'ok', 22),
      kill(2, 'invoke', 30),
      kill(2, 'ok', 31),
      at({ type: 'client', event: 'exit', client: 1, runId: 'r', t: 40 }),
      kill(4, 'ok', 50),
    ];
    expect(learnerFaults(history, 'r', 10)).toEqual([{ seq: 7, t: 31, op: 'node-kill', node: 2 }]);
  });
});

const restart = { words: faultWords('node-restart', { node: 3, persistence: undefined, delayMs: 0 } as never) };
const SAID: Words[] = [
  words('workspace.doItYourself.outcome.done', { fault: restart, at: duration(1200), held: 'yes', holder: { client: 1 }, other: { client: 2 } }),
  words('workspace.doItYourself.outcome.done', { fault: restart, at: duration(1200), held: 'no', holder: { client: 1 }, other: { client: 2 } }),
  words('workspace.doItYourself.outcome.beforeYourFaults', { fault: restart, at: duration(1200), violationAt: duration(800) }),
  words('workspace.doItYourself.outcome.noFaults'),
  words('workspace.doItYourself.outcome.otherViolation'),
  words('workspace.doItYourself.outcome.afterRelease', { fault: restart, at: duration(2400), client: { client: 1 } }),
  words('workspace.doItYourself.outcome.noViolation', { hasFaults: 'yes' }),
  words('workspace.doItYourself.outcome.noViolation', { hasFaults: 'no' }),
];

describe('the outcome in words', () => {
  for (const locale of ['en', 'ar', 'nb'] as const) {
    it(`says every outcome in ${locale}`, () => {
      const catalogue = catalogueOf(locale);
      for (const said of SAID) {
        const text = render(said, locale, catalogue);
        expect(text, said.key).not.toMatch(/[{}]|workspace\.doItYourself/);
        expect(text.length).toBeGreaterThan(20);
      }
    });
  }
  it('names the step and the two clients in English', () => {
    expect(render(SAID[0]!, 'en', catalogueOf('en'))).toMatch(/^Done: your “restart Node 3” at 1\.2 s, while Client 1 held the lock, let Client 2 take it too\.$/);
  });
});

describe('every declared task', () => {
  it('has the sentence of the break it asks for, in every language', () => {
    // The diagnosis a task teaches is its break scenario's, as the lesson page reads it.
    const taught = loadAllLessons().flatMap((lesson) => {
      const task = lesson.doItYourself;
      return task ? [lesson.scenarios.find((s) => s.id === task.scenario)?.expect.diagnosis] : [];
    });
    expect(taught.length).toBeGreaterThanOrEqual(4);
    for (const diagnosis of taught) {
      expect(diagnosis).toBeDefined();
      for (const locale of ['en', 'ar', 'nb'] as const) expect(() => render(words(goalKey(diagnosis ?? '')), locale, catalogueOf(locale)), diagnosis).not.toThrow();
    }
  });
});

describe('a lock that ran out at the breakpoint', () => {
  /** Client 1 takes a 100 ms lock and is stopped at a breakpoint in its job for `stoodMs`; Client 2 then takes the lock too. */
  const run = (stoodMs: number) => {
    const h = historyOf();
    h.runId = 'run-1';
    h.at(0).acquired(1, 'lock', { ttlMs: 100 }).at(5).enter(1, 'report');
    h.at(10).push({ type: 'scenario', step: 'breakpoint', detail: 'breakpoint: Client 1 enters its job' });
    const resumed = 10 + stoodMs;
    h.at(resumed).push({ type: 'console', client: 0, level: 'info', text: 'Resumed from the breakpoint.', words: words('runNotes.breakpointContinue') });
    h.at(resumed + 1).acquired(2, 'lock', { ttlMs: 100 }).at(resumed + 2).enter(2, 'report').at(resumed + 50).exit(1, 'report').at(resumed + 60).exit(2, 'report');
    return h.build();
  };

  it('counts the time the run stood at its breakpoints', () => {
    expect(stoodAtBreakpoints(run(3000), 'run-1', 10_000)).toBe(3000);
    // A stop not yet resumed counts up to the moment asked about.
    expect(stoodAtBreakpoints(run(3000), 'run-1', 1010)).toBe(1000);
    expect(stoodAtBreakpoints(run(3000), 'other-run', 10_000)).toBe(0);
  });

  it('says the stop outlasted the lock, not that the run broke another way', () => {
    const events = run(3000);
    const verdict = check(events);
    expect(verdict.valid).toBe('violated');
    const said = attributeBreak({ history: events, verdict, runId: 'run-1', startedAt: 0, diagnosis: 'restart-without-persistence' });
    expect(said.outcome).toBe('ran-out-at-breakpoint');
    expect(render(said.words, 'en', catalogueOf('en'))).toContain('the lock ran out while the run stood at the breakpoint (3.0 s)');
    for (const locale of ['ar', 'nb'] as const) expect(render(said.words, locale, catalogueOf(locale))).not.toContain('the lock ran out');
  });
});
