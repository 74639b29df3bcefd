/**
 * Attack: joining a lab by its id. A stranger who knows another learner's lab
 * id (a shared link, a leaked or guessed id) asks to join it, as a page
 * re-attaching would, also "from another page" (which rebuilds a tab's own
 * lab in place): it gets a lab of its own and learns nothing of the other —
 * no snapshot, no pushes — and its kill lands in its own lab, leaving the
 * bystander's nodes up and its tiny run quick. The owner's second tab (same
 * cookie) does join the lab, and the attempt is counted for the operator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalsTotal } from '@/server/ops/metrics';
import { startAttackServer, runToEnd, TINY_PROGRAM, value, type AttackServer } from './attack-fixture';

let attack: AttackServer;
beforeAll(async () => {
  attack = await startAttackServer({ maxLabs: 8, labsPerBrowser: 2 });
});
afterAll(async () => {
  await attack?.close();
});

async function refusals(reason: string): Promise<number> {
  const metric = await refusalsTotal.get();
  return metric.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

describe('attack: lab join by id', () => {
  it("a stranger's join with the bystander's id gets a lab of its own, sees nothing of the bystander's, and its kill leaves the bystander's node up", async () => {
    const ownerCookie = await attack.browser();
    const owner = await attack.tab({ cookie: ownerCookie });
    const mine = value(await owner.emitWithAck('lab:join', {}));
    const lab = attack.server.labs.get(mine.labId)!;
    const pids = lab.nodes.map((n) => n.pid);
    const before = await refusals('lab-not-yours');

    // Everything the stranger's socket is sent, by the lab it names.
    const stranger = await attack.tab();
    const seenLabs = new Set<string>();
    for (const event of ['lab:snapshot', 'nodes:update', 'links:update', 'history:append', 'run:started', 'run:ended'] as const)
      stranger.on(event, (payload: { labId: string }) => seenLabs.add(payload.labId));

    const theirs = value(await stranger.emitWithAck('lab:join', { labId: mine.labId }));
    expect(theirs.labId).not.toBe(mine.labId);
    expect(theirs.nodes.map((n) => n.port)).not.toEqual(mine.nodes.map((n) => n.port));
    // As if from another page (a tab's own lab would be rebuilt in place): still its own lab, the bystander's untouched.
    const again = value(await stranger.emitWithAck('lab:join', { labId: mine.labId, clean: true, topology: { kind: 'masters', nodes: 1 } }));
    expect(again.labId).not.toBe(mine.labId);
    expect(lab.nodes.map((n) => n.pid)).toEqual(pids);
    expect(await refusals('lab-not-yours')).toBe(before + 2);

    // The stranger's kill and reset reach its own lab only.
    const killed = value(await stranger.emitWithAck('node:kill', { node: 1 }));
    expect(killed.state).toBe('down');
    value(await stranger.emitWithAck('lab:reset', {}));
    expect(lab.nodeView(1).state).toBe('up');
    expect(lab.nodes.map((n) => n.pid)).toEqual(pids);
    expect(lab.history.since(0).filter((e) => e.type === 'nemesis')).toEqual([]);

    // The bystander's tiny run, with the stranger still connected: its own, quick, and never shown to the stranger.
    await attack.server.sandbox?.whenWarm();
    const began = performance.now();
    let startedAfterMs = Number.NaN;
    owner.once('run:started', () => (startedAfterMs = performance.now() - began));
    const ended = await runToEnd(owner, { code: TINY_PROGRAM, clients: 3 });
    const ms = performance.now() - began;
    console.log(`bystander's tiny run beside the stranger: started after ${startedAfterMs.toFixed(0)} ms, ${ms.toFixed(0)} ms in all`);
    expect(ended.verdict.valid).toBe('held');
    // Its turn comes at once (nothing of the stranger's is in its way); the whole run only a bound no one takes for a hang.
    expect(startedAfterMs).toBeLessThan(2_000);
    expect(ms).toBeLessThan(10_000);
    expect(seenLabs.has(mine.labId)).toBe(false);

    // The owner's second tab (the same cookie) joins the lab itself, and sees its run.
    const ownersSecond = await attack.tab({ cookie: ownerCookie });
    const joined = value(await ownersSecond.emitWithAck('lab:join', { labId: mine.labId }));
    expect(joined.labId).toBe(mine.labId);
    expect(joined.nodes.map((n) => n.port)).toEqual(mine.nodes.map((n) => n.port));
    expect(await refusals('lab-not-yours')).toBe(before + 2);
  });
});
