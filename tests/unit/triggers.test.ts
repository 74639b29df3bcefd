/** Scenario triggers: which events match, how the nth match and `at` make a step due, and the words for each. */
import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '@/lib/history';
import { english } from '@/lib/checker/said';
import { resolveStep, scenarioSchema, triggerSchema, type ScenarioStep, type Trigger } from '@/lib/scenario';
import { neverFiredWords, stepWords, triggerWords } from '@/lib/scenario-words';
import { matchesTrigger, TriggerWatch } from '@/lib/triggers';

const describeTrigger = (trigger: Trigger): string => english(triggerWords(trigger));
const describeStep = (step: ScenarioStep): string => english(stepWords(step));

let seq = 0;
const ev = (t: number, e: Record<string, unknown>): HistoryEvent => ({ seq: seq++, t, runId: 'run-1', ...e }) as HistoryEvent;
const start = (t: number, client: number) => ev(t, { type: 'client', client, event: 'start' });
const pause = (t: number, client: number) => ev(t, { type: 'client', client, event: 'pause' });
const acquired = (t: number, client: number) => ev(t, { type: 'lock', client, event: 'acquired', resources: ['k'], token: 'x', attempt: 1 });
const answered = (t: number, client: number, command: string) => ev(t, { type: 'redis', client, node: 1, phase: 'ok', command, args: [] });
const logged = (t: number, client: number, text: string) => ev(t, { type: 'console', client, level: 'log', text });
const enter = (t: number, client: number, job = 'send') => ev(t, { type: 'job', client, phase: 'enter', job, execution: 1 });

describe('matchesTrigger', () => {
  it('client-start matches the start of that client (or of any), and nothing else of it', () => {
    const one = triggerSchema.parse({ on: 'client-start', client: 1 });
    const any = triggerSchema.parse({ on: 'client-start' });
    expect(matchesTrigger(one, start(0, 1))).toBe(true);
    expect(matchesTrigger(one, start(0, 2))).toBe(false);
    expect(matchesTrigger(one, pause(0, 1))).toBe(false);
    expect(matchesTrigger(any, start(0, 3))).toBe(true);
  });

  it('job triggers match their phase, and their job when one is named', () => {
    const named = triggerSchema.parse({ on: 'job-enter', client: 2, job: 'send' });
    expect(matchesTrigger(named, enter(0, 2, 'send'))).toBe(true);
    expect(matchesTrigger(named, enter(0, 2, 'render'))).toBe(false);
    expect(matchesTrigger(triggerSchema.parse({ on: 'job-exit', client: 2 }), enter(0, 2))).toBe(false);
  });
});

describe('command-answered with a reply', () => {
  const said = (t: number, command: string, reply: unknown) => ev(t, { type: 'redis', client: 1, node: 1, phase: 'ok', command, args: [], reply });

  it('counts only the commands that answered so: a vote granted, by a SET or by a script that sets', () => {
    const granted = triggerSchema.parse({ on: 'command-answered', client: 1, command: '*', reply: 'OK' });
    expect(matchesTrigger(granted, said(0, 'SET', 'OK'))).toBe(true);
    expect(matchesTrigger(granted, said(0, 'EVAL', 'OK'))).toBe(true);
    expect(matchesTrigger(granted, said(0, 'SET', null))).toBe(false);
    expect(matchesTrigger(granted, said(0, 'EVAL', 1))).toBe(false);
    expect(describeTrigger({ ...granted, nth: 3 })).toBe("a command of Client 1's is answered OK for the 3rd time");
  });

  it('starts the count over when the marker line comes again (a probe calling the function once more)', () => {
    const watch = new TriggerWatch<string>();
    watch.add('pause', triggerSchema.parse({ on: 'command-answered', client: 1, command: '*', reply: 'OK', nth: 3, since: 'probe: acquire begins' }), 0);
    watch.observe(logged(0, 1, 'probe: acquire begins'));
    expect(watch.observe(said(1, 'SET', 'OK'))).toEqual([]);
    expect(watch.observe(said(2, 'SET', 'OK'))).toEqual([]);
    // Two votes only: the call gave up, and the probe calls it again.
    watch.observe(logged(10, 1, 'probe: acquire begins'));
    expect(watch.observe(said(11, 'SET', 'OK'))).toEqual([]);
    expect(watch.observe(said(12, 'SET', 'OK'))).toEqual([]);
    expect(watch.observe(said(13, 'SET', 'OK'))).toMatchObject([{ item: 'pause', due: 13 }]);
  });
});

describe('TriggerWatch', () => {
  it('makes a step due at its nth match, `at` after that event, and only once', () => {
    const watch = new TriggerWatch<string>();
    watch.add('resume', triggerSchema.parse({ on: 'lock-acquired', client: 1, nth: 2 }), 300);
    expect(watch.observe(acquired(100, 1))).toEqual([]);
    expect(watch.observe(acquired(150, 2))).toEqual([]);
    expect(watch.observe(acquired(900, 1))).toMatchObject([{ item: 'resume', due: 1_200 }]);
    expect(watch.observe(acquired(950, 1))).toEqual([]);
    expect(watch.size).toBe(0);
  });

  it('`since` counts only what the client does after its marker line: the first command inside a function', () => {
    const watch = new TriggerWatch<string>();
    const when = triggerSchema.parse({ on: 'command-answered', client: 1, command: '*', since: 'release begins' });
    watch.add('pause Client 1', when, 0);
    expect(watch.observe(answered(10, 1, 'SET'))).toEqual([]);
    expect(watch.observe(logged(20, 2, 'release begins'))).toEqual([]); // another client's line opens nothing
    expect(watch.observe(answered(30, 1, 'GET'))).toEqual([]);
    expect(watch.observe(logged(40, 1, 'probe: release begins'))).toEqual([]); // the marker itself is not counted
    expect(watch.observe(answered(50, 2, 'GET'))).toEqual([]);
    expect(watch.observe(answered(60, 1, 'GET'))).toMatchObject([{ item: 'pause Client 1', due: 60 }]);
    expect(describeTrigger(when)).toBe('a command of Client 1\'s is answered after it logs "release begins"');
  });

  it('hands back what never fired, with its trigger, in words', () => {
    const watch = new TriggerWatch<string>();
    const when = triggerSchema.parse({ on: 'client-start', client: 1 });
    watch.add('hold Client 2', when, 0);
    const [left] = watch.drain();
    expect(left).toEqual({ item: 'hold Client 2', when });
    expect(describeTrigger(when)).toBe('Client 1 starts');
    expect(english(neverFiredWords(stepWords({ at: 0, action: 'client-pause', client: 2 }), when))).toBe(
      'The scenario\'s step "pause Client 2" never fired: it waits until Client 1 starts, and that did not happen in this run.',
    );
  });
});

describe('a step on the answering node', () => {
  it('names no node before its moment, takes the answering node at it, and is refused on anything but a node fault waiting for an answer', () => {
    const scenario = scenarioSchema.parse({
      id: 'a',
      title: 'A',
      steps: [{ at: 0, when: { on: 'command-answered', client: 1, command: 'SET' }, action: 'node-kill', node: 1, onAnsweringNode: true }],
    });
    const [step] = scenario.steps;
    expect(describeStep(step!)).toBe('kill the node that answered');
    const resolved = resolveStep(step!, answered(5, 1, 'SET'));
    expect(resolved).toMatchObject({ action: 'node-kill', node: 1 });
    const onFour = resolveStep(step!, ev(6, { type: 'redis', client: 1, node: 4, phase: 'ok', command: 'SET', args: [] }));
    expect(onFour).toMatchObject({ node: 4 });
    expect('onAnsweringNode' in onFour).toBe(false);
    const bad = scenarioSchema.safeParse({ id: 'b', title: 'B', steps: [{ at: 0, when: { on: 'job-enter', client: 1 }, action: 'node-kill', node: 1, onAnsweringNode: true }] });
    expect(bad.success).toBe(false);
  });
});

describe('command-answered on a key', () => {
  const sent = (t: number, opId: number, command: string, args: string[]) => ev(t, { type: 'redis', client: 1, node: 1, phase: 'invoke', opId, command, args });
  const done = (t: number, opId: number, command: string) => ev(t, { type: 'redis', client: 1, node: 1, phase: 'ok', opId, command, reply: 'OK' });
  const counter = triggerSchema.parse({ on: 'command-answered', client: 1, command: '*', key: 'fencing:k' });

  it('fires when the command that keeps the key is answered, whichever it is: INCR, GET, a script naming it in KEYS', () => {
    for (const [command, args] of [
      ['INCR', ['fencing:k']],
      ['GET', ['fencing:k']],
      ['EVAL', ["return redis.call('INCR', KEYS[1])", '1', 'fencing:k']],
      ['FCALL', ['next_token', '2', 'other', 'fencing:k']],
    ] as const) {
      const watch = new TriggerWatch<string>();
      watch.add('pause', counter, 0);
      expect(watch.observe(sent(0, 7, command, [...args])), command).toEqual([]);
      expect(watch.observe(done(3, 7, command)).map((d) => d.item), command).toEqual(['pause']);
    }
  });

  it('does not fire for a command on another key, a script whose KEYS leave it out, or an answer to another command', () => {
    const watch = new TriggerWatch<string>();
    watch.add('pause', counter, 0);
    watch.observe(sent(0, 1, 'SET', ['lock:k', 'fencing:k', 'NX']));
    watch.observe(sent(0, 2, 'EVAL', ["return redis.call('GET', ARGV[1])", '0', 'fencing:k']));
    watch.observe(sent(0, 3, 'INCR', ['fencing:k']));
    expect(watch.observe(done(1, 1, 'SET'))).toEqual([]);
    expect(watch.observe(done(2, 2, 'EVAL'))).toEqual([]);
    expect(watch.observe(done(3, 3, 'INCR')).map((d) => d.event.t)).toEqual([3]);
  });

  it('says which key in words', () => {
    expect(describeTrigger(counter)).toBe("a command of Client 1's on fencing:k is answered");
  });
});
