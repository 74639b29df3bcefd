/**
 * A tab walking the course keeps one lab: moving to a page of another
 * topology rebuilds it in place (same id, nothing of the previous page
 * shown), a reload re-attaches as it was, and a lab whose last tab closed
 * is destroyed after a short grace, its redis-servers with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabStore } from '@/components/lab/lab-store';
import type { RunEnded } from '@/lib/run';
import { configFromEnv } from '@/server/config';
import { alive, waitFor } from '../lab-fixture';
import { runToEnd, startAttackServer, TINY_PROGRAM, value, type AttackServer, type Tab } from './attack-fixture';

const GRACE_MS = 1_500;

let attack: AttackServer;
beforeAll(async () => {
  attack = await startAttackServer({ labIdleMs: GRACE_MS });
});
afterAll(async () => {
  await attack?.close();
});

/** What a tab is sent about runs, and its view of the history: the browser's own store, fed as the socket client feeds it. */
function recordCatchUp(tab: Tab) {
  const ended: RunEnded[] = [];
  const store = createLabStore();
  tab.on('run:ended', (e) => ended.push(e));
  tab.on('lab:snapshot', (snapshot) => store.getState().actions.receiveSnapshot(snapshot, performance.now()));
  tab.on('history:append', (batch) => store.getState().actions.receiveHistory(batch));
  return { ended, history: () => store.getState().history };
}

describe('one lab per tab', () => {
  it('defaults: a lab left without a tab lives a minute, not ten', () => {
    if (process.env.LOCKLAB_LAB_IDLE_MS === undefined) expect(configFromEnv().labIdleMs).toBe(60_000);
  });

  it('keeps its lab id across pages of other topologies, and shows nothing of the page it left', async () => {
    const cookie = await attack.browser();
    // Lesson 1: the default five masters; a run there ends with a verdict, and a node is killed.
    const lesson1 = await attack.tab({ cookie });
    const first = value(await lesson1.emitWithAck('lab:join', { clients: 3 }));
    const ran = await runToEnd(lesson1, { code: TINY_PROGRAM, clients: 3 });
    expect(ran.verdict.valid).toBe('held');
    value(await lesson1.emitWithAck('node:kill', { node: 2 }));
    lesson1.close();

    // Lesson 2: the same shape, but another page: the lab is rebuilt all the same, and nothing of lesson 1 shows.
    const lesson2 = await attack.tab({ cookie });
    const seen2 = recordCatchUp(lesson2);
    const same = value(await lesson2.emitWithAck('lab:join', { labId: first.labId, clients: 3, clean: true }));
    expect(same.labId).toBe(first.labId);
    expect(same.nodes.every((n) => n.state === 'up')).toBe(true);
    value(await lesson2.emitWithAck('node:pause', { node: 1 }));
    await waitFor(() => seen2.history().some((e) => e.type === 'nemesis' && e.op === 'node-pause'), 'the pause to be shown');
    expect(seen2.ended).toEqual([]);
    expect(seen2.history().some((e) => e.type === 'job' || (e.type === 'nemesis' && e.op === 'node-kill'))).toBe(false);
    const before = attack.server.labs.get(first.labId)!;
    const oldPids = before.nodes.map((n) => n.pid!);
    const seqAfterRun = before.history.length;
    lesson2.close();

    // Lesson 4: a replicated topology. The page asks for it, and says it is a new page.
    const lesson4 = await attack.tab({ cookie });
    const seen = recordCatchUp(lesson4);
    const replicated = value(await lesson4.emitWithAck('lab:join', { labId: first.labId, topology: { kind: 'replicated' }, clients: 3, clean: true }));
    expect(replicated.labId).toBe(first.labId);
    expect(replicated.topology).toEqual({ kind: 'replicated', nodes: 2, persistence: 'none' });
    expect(replicated.nodes.map((n) => [n.label, n.state, n.role])).toEqual([
      ['Node 1', 'up', 'master'],
      ['Node 2', 'up', 'replica'],
    ]);
    expect(replicated.historyFrom).toBeGreaterThanOrEqual(seqAfterRun);
    expect(attack.server.labs.size).toBe(1);
    await waitFor(() => oldPids.every((pid) => !alive(pid)), "the previous page's redis-servers to stop");
    // The catch-up carries neither the last page's run nor its history.
    const marker = value(await lesson4.emitWithAck('node:kill', { node: 2 }));
    expect(marker.state).toBe('down');
    await waitFor(() => seen.history().some((e) => e.type === 'nemesis' && e.op === 'node-kill'), 'the kill to be shown');
    expect(seen.ended).toEqual([]);
    expect(seen.history().every((e) => e.seq >= replicated.historyFrom!)).toBe(true);
    expect(seen.history().some((e) => e.type === 'job' || e.type === 'client')).toBe(false);
    lesson4.close();

    // The playground: back to the default shape, still the same lab; a reload of it re-attaches as it was.
    const playground = await attack.tab({ cookie });
    const masters = value(await playground.emitWithAck('lab:join', { labId: first.labId, clients: 3, clean: true }));
    expect(masters.labId).toBe(first.labId);
    expect(masters.nodes.map((n) => n.label)).toEqual(['Node 1', 'Node 2', 'Node 3', 'Node 4', 'Node 5']);
    const played = await runToEnd(playground, { code: TINY_PROGRAM, clients: 3 });
    playground.close();
    const reloaded = await attack.tab({ cookie });
    const caughtUp = recordCatchUp(reloaded);
    const again = value(await reloaded.emitWithAck('lab:join', { labId: first.labId, clients: 3 }));
    expect(again.labId).toBe(first.labId);
    await waitFor(() => caughtUp.ended.length === 1, "the reload to be shown this page's last run");
    expect(caughtUp.ended[0]!.runId).toBe(played.runId);
    // A reset rebuilds in place too.
    const reset = value(await reloaded.emitWithAck('lab:reset', { topology: { kind: 'replicated' } }));
    expect(reset.labId).toBe(first.labId);
    expect(reset.nodes).toHaveLength(2);
    expect(attack.server.labs.size).toBe(1);
    reloaded.close();
  }, 60_000);

  it('destroys a lab whose last tab closed once the grace is over, and not before a reload could come back', async () => {
    const cookie = await attack.browser();
    const tab = await attack.tab({ cookie });
    const { labId } = value(await tab.emitWithAck('lab:join', {}));
    const lab = attack.server.labs.get(labId)!;
    const pids = lab.nodes.map((n) => n.pid!);
    const closedAt = performance.now();
    tab.close();
    // A reload right away gets the same lab…
    const reload = await attack.tab({ cookie });
    expect(value(await reload.emitWithAck('lab:join', { labId })).labId).toBe(labId);
    reload.close();
    await waitFor(() => attack.server.labs.viewerCount(labId) === 0, 'the reload tab to leave');
    const leftAt = performance.now();
    // …and once its last tab is gone for the grace, it is destroyed with its processes.
    await waitFor(() => lab.closed, 'the abandoned lab to be destroyed', GRACE_MS + 5_000, 20);
    expect(performance.now() - leftAt).toBeGreaterThanOrEqual(GRACE_MS - 50);
    expect(performance.now() - closedAt).toBeLessThan(GRACE_MS + 5_000);
    await waitFor(() => attack.server.labs.get(labId) === undefined, 'the manager to forget it');
    await waitFor(() => pids.every((pid) => !alive(pid)), 'its redis-servers to stop');
    // Its tab, back later, is told the lab is gone and starts a new one.
    const late = await attack.tab({ cookie });
    expect(value(await late.emitWithAck('lab:join', { labId })).labId).not.toBe(labId);
  });
});
