/** Scenarios against a real lab: steps fire in order at their times, reach the history, and replay by seed. */
import { describe, expect, it } from 'vitest';
import { scenarioSchema, schedule } from '@/lib/scenario';
import type { RunningClients } from '@/server/nemesis/client-faults';
import { runScenario } from '@/server/scenarios/scenario-runner';
import { startLab, waitFor } from './lab-fixture';

describe('scenarios', () => {
  it('rejects a malformed scenario with the field named', () => {
    const bad = scenarioSchema.safeParse({ id: 'x', title: 'x', steps: [{ at: 10, action: 'node-kill', node: 0 }] });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.error.issues[0]!.path.join('.')).toBe('steps.0.node');
    expect(scenarioSchema.safeParse({ id: 'x', title: 'x', steps: [{ at: 10, action: 'node-explode', node: 1 }] }).success).toBe(false);
  });

  it('gives the same schedule for the same seed and another for another seed', () => {
    const base = { id: 'jittery', title: 'Jittery', jitterMs: 500, steps: [0, 100, 200, 300].map((at) => ({ at, action: 'node-pause' as const, node: 1 })) };
    const one = schedule(scenarioSchema.parse({ ...base, seed: 7 }));
    const again = schedule(scenarioSchema.parse({ ...base, seed: 7 }));
    const other = schedule(scenarioSchema.parse({ ...base, seed: 8 }));
    expect(again).toEqual(one);
    expect(other.map((s) => s.at)).not.toEqual(one.map((s) => s.at));
    expect(one.map((s) => s.at)).toEqual([...one.map((s) => s.at)].sort((a, b) => a - b));
  });

  it('plays node faults and client faults at their times, writing each to the history', async () => {
    const lab = await startLab({ nodes: 3 });
    const calls: string[] = [];
    // A program's clients as the nemesis sees them, recording what it was asked to do.
    const clients: RunningClients = {
      runId: 'run-1',
      clients: 3,
      isRunning: () => true,
      isPaused: () => false,
      pause: (c, ms) => void calls.push(`pause ${c} ${ms}`),
      resume: (c) => void calls.push(`resume ${c}`),
      crash: (c) => void calls.push(`crash ${c}`),
      skew: (c, ms) => void calls.push(`skew ${c} ${ms}`),
    };
    const scenario = scenarioSchema.parse({
      id: 'kill-two',
      title: 'Kill two',
      steps: [
        { at: 60, action: 'node-kill', node: 3 },
        { at: 0, action: 'node-kill', node: 2 },
        { at: 30, action: 'client-pause', client: 1, durationMs: 500 },
        { at: 90, action: 'node-restart', node: 2 },
        { at: 100, action: 'node-kill', node: 2 },
      ],
    });
    const started = lab.now();
    const outcomes = await runScenario(lab, scenario, { runId: 'run-1', clients }).done;
    expect(outcomes.map((o) => [o.step.action, o.ok])).toEqual([
      ['node-kill', true],
      ['client-pause', true],
      ['node-kill', true],
      ['node-restart', true],
      ['node-kill', true],
    ]);
    expect(calls).toEqual(['pause 1 500']);
    expect(lab.nodes.map((n) => n.state)).toEqual(['up', 'down', 'down']);
    const steps = lab.history.since(0).filter((e) => e.type === 'scenario');
    expect(steps.map((e) => e.type === 'scenario' && e.step)).toEqual(['start', 'node-kill', 'client-pause', 'node-kill', 'node-restart', 'node-kill']);
    const kill3 = steps[3]!;
    // Never early, though Node's timers round to whole milliseconds.
    expect(kill3.t - started).toBeGreaterThanOrEqual(60);
    expect(kill3.runId).toBe('run-1');
  });

  it('never fires a step before the lab clock says it is due, whatever the timers say', async () => {
    const lab = await startLab({ nodes: 1 });
    const scenario = scenarioSchema.parse({ id: 'late', title: 'Late', steps: [{ at: 40, action: 'node-pause', node: 1 }] });
    // Timers and the lab clock disagree (Node's timers count whole milliseconds; here, much more): a lab clock
    // at half speed reads 20 ms when a plain 40 ms timer fires. The step must wait for the lab clock.
    const real = lab.now.bind(lab);
    const t0 = real();
    lab.now = () => t0 + (real() - t0) / 2;
    let firedAt = -1;
    lab.history.subscribe((e) => {
      if (e.type === 'scenario' && e.step === 'node-pause') firedAt = lab.now();
    });
    const origin = lab.now();
    const outcomes = await runScenario(lab, scenario, { origin }).done;
    expect(outcomes.map((o) => o.ok)).toEqual([true]);
    expect(firedAt - origin).toBeGreaterThanOrEqual(40);
  });

  it('records a step that cannot be carried out, and cancel settles the rest', async () => {
    const lab = await startLab({ nodes: 1 });
    const scenario = scenarioSchema.parse({
      id: 'bad-steps',
      title: 'Bad steps',
      steps: [
        { at: 0, action: 'client-crash', client: 1 },
        { at: 0, action: 'failover' },
        { at: 60_000, action: 'node-kill', node: 1 },
      ],
    });
    const handle = runScenario(lab, scenario);
    let settled = false;
    void handle.done.then(() => (settled = true));
    await waitFor(() => lab.history.since(0).some((e) => e.type === 'nemesis' && e.op === 'failover' && e.phase === 'fail'), 'the failover step to fail');
    expect(settled).toBe(false); // the 60 s step is still pending
    handle.cancel();
    const outcomes = await handle.done;
    expect(outcomes.map((o) => o.ok)).toEqual([false, false, false]);
    expect(outcomes[0]!.error).toMatch(/needs a running program/);
    expect(outcomes[1]!.error).toMatch(/no replica/);
    expect(outcomes[2]!.error).toBe('cancelled');
    expect(lab.node(1).state).toBe('up');
  });

  it('fires a step that waits for an event that long after the event, on the nth match of its own run only', async () => {
    const lab = await startLab({ nodes: 1 });
    const scenario = scenarioSchema.parse({
      id: 'on-job',
      title: 'On the job',
      steps: [{ at: 50, when: { on: 'job-enter', client: 1, nth: 2 }, action: 'node-pause', node: 1 }],
    });
    const handle = runScenario(lab, scenario, { runId: 'run-1' });
    const enter = (client: number, runId: string, execution: number) =>
      lab.history.append({ type: 'job', phase: 'enter', client, job: 'send', execution, runId });
    enter(1, 'run-0', 1); // another run's event
    enter(2, 'run-1', 1); // another client's
    const first = enter(1, 'run-1', 2);
    const pauses = () => lab.history.since(0).filter((e) => e.type === 'scenario' && e.step === 'node-pause');
    // Long past first.t + 50: a step counting the first match would have fired by now.
    await waitFor(() => lab.now() - first.t > 150, 'time to pass the first match');
    expect(pauses()).toHaveLength(0);
    expect(lab.node(1).state).toBe('up');
    const second = enter(1, 'run-1', 3);
    const outcomes = await handle.done;
    expect(outcomes.map((o) => o.ok)).toEqual([true]);
    const [pause] = pauses();
    expect(pause!.t - second.t).toBeGreaterThanOrEqual(50);
    expect(pause!.type === 'scenario' && pause!.detail).toBe('pause Node 1 (50 ms after Client 1 enters its job for the 2nd time)');
    expect(lab.node(1).state).toBe('paused');
  });

  it('a node fault on the answering node kills the node that answered, not the one it names', async () => {
    const lab = await startLab({ nodes: 3 });
    const scenario = scenarioSchema.parse({
      id: 'answered',
      title: 'The vote that made the quorum',
      steps: [{ at: 0, when: { on: 'command-answered', client: 1, command: 'SET', nth: 2 }, action: 'node-kill', node: 1, onAnsweringNode: true }],
    });
    const handle = runScenario(lab, scenario, { runId: 'run-1' });
    const answer = (node: number) => lab.history.append({ type: 'redis', phase: 'ok', opId: node, client: 1, node, command: 'SET', reply: 'OK', runId: 'run-1' });
    answer(1);
    answer(3);
    const outcomes = await handle.done;
    expect(outcomes.map((o) => o.ok)).toEqual([true]);
    expect(lab.node(3).state).toBe('down');
    expect(lab.node(1).state).toBe('up');
    const kill = lab.history.since(0).find((e) => e.type === 'scenario' && e.step === 'node-kill')!;
    expect(kill.type === 'scenario' && kill.detail).toBe("kill Node 3 (as soon as Client 1's SET is answered for the 2nd time)");
  });

  it('a trigger without a client counts every client: the second job entered by anyone', async () => {
    const lab = await startLab({ nodes: 1 });
    const scenario = scenarioSchema.parse({ id: 'anyone', title: 'Anyone', steps: [{ at: 0, when: { on: 'job-enter', nth: 2 }, action: 'node-pause', node: 1 }] });
    const handle = runScenario(lab, scenario, { runId: 'run-1' });
    lab.history.append({ type: 'job', phase: 'enter', client: 1, job: 'send', execution: 1, runId: 'run-1' });
    lab.history.append({ type: 'console', client: 0, level: 'warn', text: 'not a client of the run', runId: 'run-1' });
    expect(lab.history.since(0).some((e) => e.type === 'scenario' && e.step === 'node-pause')).toBe(false);
    const second = lab.history.append({ type: 'job', phase: 'enter', client: 3, job: 'send', execution: 2, runId: 'run-1' });
    const outcomes = await handle.done;
    expect(outcomes.map((o) => o.ok)).toEqual([true]);
    const pause = lab.history.since(0).find((e) => e.type === 'scenario' && e.step === 'node-pause')!;
    expect(pause.t).toBeGreaterThanOrEqual(second.t);
    expect(pause.type === 'scenario' && pause.detail).toBe('pause Node 1 (as soon as a client enters its job for the 2nd time)');
  });

  it('settles a step whose event never came when the scenario is cancelled, saying which event', async () => {
    const lab = await startLab({ nodes: 1 });
    const scenario = scenarioSchema.parse({
      id: 'never',
      title: 'Never',
      steps: [
        { at: 0, when: { on: 'command-answered', client: 2, command: 'set' }, action: 'node-kill', node: 1 },
        { at: 0, action: 'node-pause', node: 1 },
      ],
    });
    const handle = runScenario(lab, scenario, { runId: 'run-1' });
    // A SET that failed, and another client's answered SET, are not the trigger.
    lab.history.append({ type: 'redis', phase: 'fail', opId: 1, client: 2, node: 1, command: 'set', error: 'ERR', runId: 'run-1' });
    lab.history.append({ type: 'redis', phase: 'ok', opId: 2, client: 1, node: 1, command: 'set', reply: 'OK', runId: 'run-1' });
    await waitFor(() => lab.node(1).state === 'paused', 'the timed step');
    handle.cancel({ runEnded: true });
    const outcomes = await handle.done;
    expect(outcomes.map((o) => [o.step.action, o.ok])).toEqual([
      ['node-kill', false],
      ['node-pause', true],
    ]);
    expect(outcomes[0]!.error).toBe("never fired: it waits until Client 2's SET is answered, and that did not happen");
    // The learner reads it in the run's console.
    const notes = lab.history.since(0).filter((e) => e.type === 'console' && e.runId === 'run-1');
    expect(notes.map((e) => e.type === 'console' && e.text)).toEqual([
      'The scenario\'s step "kill Node 1" never fired: it waits until Client 2\'s SET is answered, and that did not happen in this run.',
    ]);
    expect(lab.node(1).state).toBe('paused');
  });

  it('rejects a trigger it does not know, naming the field', () => {
    const bad = scenarioSchema.safeParse({ id: 'x', title: 'x', steps: [{ at: 0, when: { on: 'moon-rise', client: 1 }, action: 'node-kill', node: 1 }] });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.error.issues[0]!.path.join('.')).toBe('steps.0.when.on');
  });
});
