/**
 * "Use the lab here" (lab:take): three tabs of one browser at a share of two
 * labs. The third is refused a lab of its own, takes the lab idle longest
 * from the others, and gets that lab's view rebuilt for its page; the tab
 * that had it is told where it went and keeps no lab (its commands reach
 * nothing). A lab whose run is going never moves: with both labs running,
 * the take is refused in words. Another browser's labs are never taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../lab-fixture';
import { startAttackServer, value, type AttackServer, type Tab } from './attack-fixture';

let attack: AttackServer;
beforeAll(async () => {
  attack = await startAttackServer({ maxLabs: 8, labsPerBrowser: 2 });
});
afterAll(async () => {
  await attack?.close();
});

/** The `lab:moved` notices a tab was sent. */
function movedNotices(tab: Tab): { labId: string; to: string | null }[] {
  const seen: { labId: string; to: string | null }[] = [];
  tab.on('lab:moved', (info) => seen.push(info));
  return seen;
}

/** A program that keeps its run going for a while (each client sleeps in a loop). */
const LONG_PROGRAM = "import lab from 'lab';\nfor (let i = 0; i < 400; i++) await lab.sleep(50);";

describe('use the lab here', () => {
  it('moves the idle-longest lab of the browser to the third tab; the tab that had it is told where it went', async () => {
    const cookie = await attack.browser();
    const first = await attack.tab({ cookie });
    const second = await attack.tab({ cookie });
    const third = await attack.tab({ cookie });
    const firstNotices = movedNotices(first);
    const secondNotices = movedNotices(second);
    const firstLab = value(await first.emitWithAck('lab:join', {}));
    const secondLab = value(await second.emitWithAck('lab:join', {}));
    // The second tab is the one in use: it kills a node, so the first tab's lab is the one idle longest.
    value(await second.emitWithAck('node:kill', { node: 2 }));

    // Bystander: another browser's lab, at the same moment, never a candidate.
    const stranger = await attack.tab();
    const strangerLab = value(await stranger.emitWithAck('lab:join', {}));

    const refused = await third.emitWithAck('lab:join', {});
    expect(refused).toMatchObject({ ok: false, error: { code: 'lab-full', words: { key: 'refusals.lab.perBrowser' } } });

    const taken = value(await third.emitWithAck('lab:take', { topology: { kind: 'masters', nodes: 1 }, place: 'Lesson 3 · TTL and the watchdog' }));
    expect(taken.labId).toBe(firstLab.labId);
    // The view is the taker's page's: one node, up, as the lesson needs.
    expect(taken.topology).toMatchObject({ kind: 'masters', nodes: 1 });
    expect(taken.nodes.map((n) => [n.label, n.state])).toEqual([['Node 1', 'up']]);
    await waitFor(() => firstNotices.length === 1, 'the first tab to be told its lab moved');
    expect(firstNotices).toEqual([{ labId: firstLab.labId, to: 'Lesson 3 · TTL and the watchdog' }]);
    expect(secondNotices).toEqual([]);
    expect(attack.server.labs.ownedBy(attack.server.labs.ownerOf(firstLab.labId)!).map((l) => l.id).sort()).toEqual([firstLab.labId, secondLab.labId].sort());

    // The tab that lost it has no lab: its commands reach nothing, and the taker's lab is not touched by them.
    expect(await first.emitWithAck('node:kill', { node: 1 })).toMatchObject({ ok: false, error: { code: 'no-lab' } });
    expect(attack.server.labs.get(firstLab.labId)!.nodeView(1).state).toBe('up');
    // The taker's lab works: a run to its end in it.
    const ended = new Promise<{ labId: string }>((resolve) => third.once('run:ended', resolve));
    value(await third.emitWithAck('run:start', { code: "import lab from 'lab';\nawait lab.job('x').run(10);", clients: 1 }));
    expect((await ended).labId).toBe(firstLab.labId);
    expect(attack.server.labs.get(strangerLab.labId)!.closed).toBe(false);

    // The first tab takes one back: the lab idle longest now is the second tab's (the third just ran one).
    const back = value(await first.emitWithAck('lab:take', { place: 'Playground' }));
    expect(back.labId).toBe(secondLab.labId);
    await waitFor(() => secondNotices.length === 1, 'the second tab to be told its lab moved');
    expect(secondNotices[0]).toEqual({ labId: secondLab.labId, to: 'Playground' });
  });

  it('never moves a lab whose run is going: with every lab running, the take is refused in words', async () => {
    const cookie = await attack.browser();
    const first = await attack.tab({ cookie });
    const second = await attack.tab({ cookie });
    const third = await attack.tab({ cookie });
    const notices = [movedNotices(first), movedNotices(second)];
    value(await first.emitWithAck('lab:join', {}));
    value(await second.emitWithAck('lab:join', {}));
    const running = (tab: Tab) => new Promise<void>((resolve) => tab.once('run:started', () => resolve()));
    const started = Promise.all([running(first), running(second)]);
    value(await first.emitWithAck('run:start', { code: LONG_PROGRAM, clients: 1 }));
    value(await second.emitWithAck('run:start', { code: LONG_PROGRAM, clients: 1 }));
    await started;

    const refused = await third.emitWithAck('lab:take', {});
    expect(refused).toMatchObject({
      ok: false,
      error: {
        message: 'Every lab of this browser (2) has a run or a check going in another tab, and a lab never leaves a tab mid-run. Try again when one finishes, or close a Lock Lab tab.',
        words: { key: 'refusals.lab.takeBusy', values: { labs: 2 } },
      },
    });
    expect(notices.flat()).toEqual([]);

    // Once the first tab's run is stopped, its lab may move.
    value(await first.emitWithAck('run:stop', {}));
    const taken = value(await third.emitWithAck('lab:take', {}));
    await waitFor(() => notices[0]!.length === 1, 'the first tab to be told its lab moved');
    expect(notices[0]![0]!.labId).toBe(taken.labId);
    expect(notices[1]).toEqual([]);
  });
});
