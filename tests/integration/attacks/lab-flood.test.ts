/**
 * Five sockets of one browser on one lab, each sending kill/restart as fast
 * as it can (the finding: 291 commands in 5.7 s, each restart a spawned
 * redis-server). Together they get no more through than the lab's one
 * bucket allows, each is told why and disconnected once it keeps
 * hammering, and another learner's run is unaffected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '@/lib/result';
import { refusalsTotal } from '@/server/ops/metrics';
import { waitFor } from '../lab-fixture';
import { bystander, startAttackServer, value, type AttackServer, type Tab } from './attack-fixture';

const PER_LAB = { burst: 30, perSecond: 10 };
const FLOOD = { refusals: 40, windowMs: 10_000 };

let attack: AttackServer;
beforeAll(async () => {
  attack = await startAttackServer({
    perLabBurst: PER_LAB.burst,
    perLabRatePerSecond: PER_LAB.perSecond,
    floodRefusals: FLOOD.refusals,
    floodWindowMs: FLOOD.windowMs,
    socketsPerBrowser: 8,
  });
});
afterAll(async () => {
  await attack?.close();
});

async function refusals(reason: string): Promise<number> {
  const metric = await refusalsTotal.get();
  return metric.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

/**
 * Sends kill/restart of nodes 1–5, twenty a turn of the event loop without
 * waiting for answers (a script, not a person), until the server disconnects
 * the tab; resolves with every answer that came back.
 */
async function hammer(tab: Tab, errors: string[]): Promise<Result<unknown>[]> {
  tab.on('lab:error', ({ message }) => errors.push(message));
  const answers: Result<unknown>[] = [];
  const pending: Promise<unknown>[] = [];
  const gone = new Promise<void>((resolve) => tab.once('disconnect', () => resolve()));
  for (let sent = 0; tab.connected && sent < 4_000; sent += 20) {
    for (let i = 0; i < 20; i++) {
      const node = (i % 5) + 1;
      const emitter = tab.timeout(20_000);
      const send = i % 2 === 0 ? emitter.emitWithAck('node:kill', { node }) : emitter.emitWithAck('node:restart', { node });
      // No answer: the server closed the socket with this command in flight.
      pending.push(send.then((r) => answers.push(r), () => undefined));
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  // Bounded, so a tab the server never cuts off fails the assertions below instead of hanging the suite.
  await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  await Promise.all(pending);
  return answers;
}

/**
 * Runs the steps of a test, each named, and fails with the name of the one
 * still going after `ms`: a test that hangs on a busy machine says where.
 */
async function inSteps(ms: number, body: (step: (name: string) => void) => Promise<void>): Promise<void> {
  let current = 'starting';
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still at "${current}" after ${ms / 1000} s`)), ms);
  });
  try {
    await Promise.race([body((name) => (current = name)), stuck]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a flood of commands on one lab', () => {
  it('bounds the commands of all its sockets together by the lab bucket, and disconnects each hammering socket with the reason', () => inSteps(140_000, async (step) => {
    step('the bystander joins its lab');
    const watcher = await bystander(attack);
    step('five tabs of one browser join one lab');
    const cookie = await attack.browser();
    const first = await attack.tab({ cookie });
    const { labId } = value(await first.emitWithAck('lab:join', {}));
    const tabs = [first, ...(await Promise.all(Array.from({ length: 4 }, () => attack.tab({ cookie }))))];
    await Promise.all(tabs.slice(1).map(async (tab) => value(await tab.emitWithAck('lab:join', { labId }))));
    const floodsBefore = await refusals('socket-flood');

    const lab = attack.server.labs.get(labId)!;
    const from = lab.history.length;
    const errors: string[][] = tabs.map(() => []);
    const began = performance.now();
    step('the tabs hammer');
    const answers = (await Promise.all(tabs.map((tab, i) => hammer(tab, errors[i]!)))).flat();
    const elapsedS = (performance.now() - began) / 1000;

    // Every command that reached the lab left a nemesis invoke in its history (done or refused as a conflict);
    // together they came out of the lab's one bucket, whatever the number of sockets.
    step('the admitted commands finish');
    const nemesis = () => lab.history.since(from).filter((e) => e.type === 'nemesis');
    await waitFor(() => {
      const events = nemesis();
      return events.filter((e) => e.phase === 'invoke').length * 2 === events.length;
    }, 'the admitted commands to finish', 30_000, 50);
    const reached = nemesis().filter((e) => e.phase === 'invoke').length;
    expect(reached).toBeGreaterThan(0);
    expect(reached).toBeLessThanOrEqual(PER_LAB.burst + Math.ceil(PER_LAB.perSecond * elapsedS) + 1);
    const limited = answers.filter((r) => !r.ok && r.error.code === 'rate-limited');
    expect(limited.length).toBeGreaterThan(reached);
    // Every hammering socket was told why, then disconnected.
    for (const [i, tab] of tabs.entries()) {
      expect(tab.connected).toBe(false);
      expect(errors[i]).toEqual([expect.stringMatching(/^This tab kept sending lab commands after being told to slow down \(\d+ refused in 10 s\), so the lab server disconnected it\. Reload the page to carry on\.$/)]);
    }
    expect(await refusals('socket-flood')).toBe(floodsBefore + tabs.length);

    // The lab is still there (within its grace) and a reload of the tab gets it back, working.
    step('a reloaded tab rejoins and commands the lab');
    const reloaded = await attack.tab({ cookie });
    // As a person would: one command, then a pause that lets the lab's bucket (emptied by the flood) refill —
    // asking for five nodes every few milliseconds would itself be a flood, and is disconnected as one.
    await waitFor(
      async () => (await reloaded.timeout(10_000).emitWithAck('lab:join', { labId })).ok,
      'the reloaded tab to rejoin its lab',
      20_000,
      500,
    );
    await waitFor(
      async () => {
        const restart = await reloaded.timeout(10_000).emitWithAck('node:restart', { node: 1 });
        return restart.ok || restart.error.code === 'conflict';
      },
      'the lab to take commands again',
      20_000,
      500,
    );
    expect(reloaded.connected).toBe(true);
    // And another learner's lab was never held up.
    step("the bystander's run");
    const { ended } = await watcher.run();
    expect(ended.outcome.status).toBe('completed');
    expect(ended.verdict.valid).toBe('held');
  }), 150_000); // hundreds of kills and restarts of real nodes, on a busy machine
});
