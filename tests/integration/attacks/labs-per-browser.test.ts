/**
 * One browser (one cookie) asking for lab after lab: it never holds more
 * than its share, its own idle labs are what make room, and the server stays
 * usable for the next learner. Also: classroom labs are not counted, and a
 * forged cookie cannot spend another browser's share.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabSnapshot } from '@/lib/cluster';
import type { Result } from '@/lib/result';
import { refusalsTotal } from '@/server/ops/metrics';
import { waitFor } from '../lab-fixture';
import { bystander, startAttackServer, value, type AttackServer } from './attack-fixture';

const TOKEN = 'instructor-token-for-attacks';
const REFUSED = 'This browser already has 2 labs open in other tabs; close one and try again.';

let attack: AttackServer;
beforeAll(async () => {
  attack = await startAttackServer({ maxLabs: 12, labsPerBrowser: 2, socketsPerBrowser: 8, instructorToken: TOKEN, coordinationUrl: null });
});
afterAll(async () => {
  await attack?.close();
});

const idOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf('.'));

async function refusals(reason: string): Promise<number> {
  const metric = await refusalsTotal.get();
  return metric.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

/** The most labs `browser` held at once while `attack` ran, sampled as it goes and after each answer. */
async function watchOwned(browser: string, attackFn: (note: () => void) => Promise<void>): Promise<number> {
  let most = 0;
  const note = () => (most = Math.max(most, attack.server.labs.ownedBy(browser).length));
  const sampler = setInterval(note, 2);
  try {
    await attackFn(note);
  } finally {
    clearInterval(sampler);
  }
  note();
  return most;
}

describe('labs per browser', () => {
  it('a script joining 40 labs with one cookie never holds more than 2, and a new browser is still served', async () => {
    const watcher = await bystander(attack);
    const cookie = await attack.browser();
    const browser = idOf(cookie);
    const refusedBefore = await refusals('labs-per-browser');

    // Forty tabs one after another, each closed once it has its lab (open, join, close: a reload loop).
    const sequential: Result<LabSnapshot>[] = [];
    const mostSequential = await watchOwned(browser, async (note) => {
      for (let i = 0; i < 40; i++) {
        const tab = await attack.tab({ cookie });
        sequential.push(await tab.emitWithAck('lab:join', {}));
        note();
        tab.close();
      }
    });
    expect(mostSequential).toBeLessThanOrEqual(2);
    // A closed tab's lab is the one reclaimed for the next: every join was served.
    expect(sequential.every((r) => r.ok)).toBe(true);

    // Twenty-four more at once, from as many sockets as the browser may open.
    const parallel: Result<LabSnapshot>[] = [];
    const mostParallel = await watchOwned(browser, async (note) => {
      const tabs = await Promise.all(Array.from({ length: 8 }, () => attack.tab({ cookie })));
      await Promise.all(
        tabs.flatMap((tab) =>
          Array.from({ length: 3 }, async () => {
            parallel.push(await tab.emitWithAck('lab:join', {}));
            note();
          }),
        ),
      );
      for (const tab of tabs) tab.close();
    });
    expect(mostParallel).toBeLessThanOrEqual(2);
    expect(parallel).toHaveLength(24);
    const refused = parallel.filter((r) => !r.ok);
    for (const r of refused) expect(r).toMatchObject({ ok: false, error: { code: 'lab-full', message: REFUSED } });
    expect(await refusals('labs-per-browser')).toBe(refusedBefore + refused.length);
    // The whole server never held more than this browser's two and the bystander's one.
    expect(attack.server.labs.size).toBeLessThanOrEqual(3);

    // A new learner gets a lab at once, and the bystander's run still finishes and holds.
    const newcomer = await attack.tab({ cookie: await attack.browser() });
    expect(value(await newcomer.emitWithAck('lab:join', {})).nodes.every((n) => n.state === 'up')).toBe(true);
    const { ended } = await watcher.run();
    expect(ended.outcome.status).toBe('completed');
    expect(ended.verdict.valid).toBe('held');
  }, 180_000); // sixty-odd labs started one after another: a minute or more on a busy two-core machine

  it('refuses a third lab while two tabs use theirs, in words, and serves it once a tab closes', async () => {
    const cookie = await attack.browser();
    const first = await attack.tab({ cookie });
    const second = await attack.tab({ cookie });
    value(await first.emitWithAck('lab:join', {}));
    value(await second.emitWithAck('lab:join', {}));
    const third = await attack.tab({ cookie });
    // The same English as always, and the refusal's words for the page's language.
    expect(await third.emitWithAck('lab:join', {})).toEqual({
      ok: false,
      error: { code: 'lab-full', message: REFUSED, words: { key: 'refusals.lab.perBrowser', values: { limit: 2 } } },
    });

    // A classroom's lab is not the browser's own: an instructor in this browser does not use up its share…
    const classroom = value(await first.emitWithAck('classroom:create', { token: TOKEN, name: 'Attack class' }));
    expect(attack.server.labs.ownedBy(idOf(cookie))).toHaveLength(2);
    expect(attack.server.labs.get(classroom.labId)).toBeDefined();
    // …nor is it reclaimed to make room.
    second.close();
    const lab = await waitFor(async () => {
      const r = await third.emitWithAck('lab:join', {});
      return r.ok ? r.value : null;
    }, 'the third tab to get the lab the closed tab left', 5_000, 50);
    expect(lab.nodes.every((n) => n.state === 'up')).toBe(true);
    expect(attack.server.labs.get(classroom.labId)?.closed).toBe(false);
    expect(attack.server.labs.ownedBy(idOf(cookie))).toHaveLength(2);
  });

  it('a forged cookie gets no socket: it cannot reclaim or refuse another browser', async () => {
    const cookie = await attack.browser();
    const victim = idOf(cookie);
    const tab = await attack.tab({ cookie });
    const own = value(await tab.emitWithAck('lab:join', {}));
    tab.close();
    await waitFor(() => attack.server.labs.viewerCount(own.labId) === 0, 'the victim tab to leave its lab');
    // Same identity, made-up signature: not an identity bought with work, so no socket at all.
    const forger = `locklab_browser=${victim}.${'A'.repeat(43)}`;
    for (let i = 0; i < 3; i++) await expect(attack.rawTab({ cookie: forger })).rejects.toThrow(/has not proved it runs in a browser/);
    // The victim's idle lab (within its grace) is still there for its reload.
    expect(attack.server.labs.ownedBy(victim).map((l) => l.id)).toEqual([own.labId]);
    const reloaded = await attack.tab({ cookie });
    expect(value(await reloaded.emitWithAck('lab:join', { labId: own.labId })).labId).toBe(own.labId);
  });
});
