/**
 * One browser opening socket after socket is refused past its share, in
 * words, while other browsers connect; and a client that drops its cookie
 * to get a fresh identity each time is bounded by the server-wide rate at
 * which identities are handed out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalsTotal } from '@/server/ops/metrics';
import { waitFor } from '../lab-fixture';
import { startAttackServer, value, type AttackServer, type Tab } from './attack-fixture';

let attack: AttackServer;
beforeAll(async () => {
  // A small identity budget so the test can spend it; the real default is a burst of 120.
  attack = await startAttackServer({ socketsPerBrowser: 8, newBrowserBurst: 12, newBrowserRatePerSecond: 1 });
});
afterAll(async () => {
  await attack?.close();
});

async function refusals(reason: string): Promise<number> {
  const metric = await refusalsTotal.get();
  return metric.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

const refusedWith = (promise: Promise<Tab>): Promise<Error> =>
  promise.then(
    () => {
      throw new Error('the socket was let in');
    },
    (error: Error) => error,
  );

describe('sockets per browser', () => {
  it('hands a browser whose socket is its first contact an identity in the handshake, HttpOnly and SameSite=Lax', async () => {
    const res = await fetch(`${attack.server.url}/socket.io/?EIO=4&transport=polling`);
    await res.arrayBuffer();
    const set = res.headers.getSetCookie().find((c) => c.startsWith('locklab_browser='));
    expect(set).toMatch(/^locklab_browser=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    // A handshake that already carries a good cookie is not given another.
    const cookie = set!.split(';')[0]!;
    const again = await fetch(`${attack.server.url}/socket.io/?EIO=4&transport=polling`, { headers: { cookie } });
    await again.arrayBuffer();
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it('refuses the ninth socket of one browser with a clear error, and lets it in again once one closes', async () => {
    const cookie = await attack.browser();
    const before = await refusals('sockets-per-browser');
    const tabs = await Promise.all(Array.from({ length: 8 }, () => attack.tab({ cookie })));
    const error = await refusedWith(attack.tab({ cookie }));
    expect(error.message).toBe('This browser already has 8 connections to the lab server open; close some Lock Lab tabs and reload this one.');
    // Several at once cannot slip through together.
    const burst = await Promise.all(Array.from({ length: 5 }, () => refusedWith(attack.tab({ cookie }))));
    expect(burst.every((e) => /already has 8 connections/.test(e.message))).toBe(true);
    expect(await refusals('sockets-per-browser')).toBe(before + 6);

    // Another browser is not affected, and the first gets a socket back when one of its tabs closes.
    const other = await attack.tab({ cookie: await attack.browser() });
    expect(other.connected).toBe(true);
    tabs[0]!.close();
    const back = await waitFor(() => attack.tab({ cookie }).catch(() => null), 'a socket once a tab of the browser closed', 5_000, 50);
    value(await back.emitWithAck('lab:join', {}));
  });

  it('bounds how fast a cookie-less client gets new identities, server-wide', async () => {
    const known = await attack.browser();
    const before = await refusals('new-browsers');
    // Each cookie-less socket is a new browser: they draw on the identity budget until it is spent.
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => attack.tab()));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThan(20);
    for (const r of refused) expect((r.reason as Error).message).toBe('Too many new visitors are arriving at once; wait a few seconds and reload the page.');
    expect(await refusals('new-browsers')).toBe(before + refused.length);
    // A browser that kept its cookie is let in all the same: the budget only limits new identities.
    const tab = await attack.tab({ cookie: known });
    value(await tab.emitWithAck('lab:join', {}));
  });
});
