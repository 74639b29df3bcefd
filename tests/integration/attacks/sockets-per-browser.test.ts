/**
 * One browser opening socket after socket is refused past its share, in
 * words, while other browsers connect; a socket without an identity bought
 * with work is refused, and a flood of such handshakes locks no real
 * visitor out (there is no shared minting budget left to spend).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalsTotal } from '@/server/ops/metrics';
import { waitFor } from '../lab-fixture';
import { startAttackServer, value, type AttackServer, type Tab } from './attack-fixture';

let attack: AttackServer;
beforeAll(async () => {
  attack = await startAttackServer({ socketsPerBrowser: 8 });
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
  it('refuses a socket with no identity or a forged one, in words, and tells the page to get one', async () => {
    const before = await refusals('identity-required');
    const cookie = await attack.browser();
    const id = cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf('.'));
    const attempts = [undefined, { cookie: `locklab_browser=${id}.${'A'.repeat(43)}` }, { cookie: 'locklab_browser=made-up' }];
    for (const headers of attempts) {
      const error = (await refusedWith(attack.rawTab(headers))) as Error & { data?: unknown };
      expect(error.message).toBe('This page has not proved it runs in a browser yet, so the lab server did not connect it; reload the page.');
      expect(error.data).toEqual({ code: 'forbidden', identityRequired: true, words: { key: 'refusals.identity.required', values: {} } });
    }
    expect(await refusals('identity-required')).toBe(before + attempts.length);
    // The page asks first: a browser with an identity is told so, one without gets the work to do.
    const known = (await (await fetch(`${attack.server.url}/identity`, { headers: { cookie } })).json()) as unknown;
    expect(known).toEqual({ verified: true });
    const stranger = (await (await fetch(`${attack.server.url}/identity`)).json()) as unknown;
    expect(stranger).toEqual({ verified: false, challenge: expect.stringMatching(/^\d+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/), bits: 17 });
    // A made-up solution buys nothing.
    const forged = await fetch(`${attack.server.url}/identity`, { method: 'POST', body: JSON.stringify({ challenge: (stranger as { challenge: string }).challenge, nonce: '1' }) });
    expect(forged.status).toBe(403);
    expect(forged.headers.getSetCookie()).toEqual([]);
    expect(((await forged.json()) as { error: { message: string } }).error.message).toBe('That proof of work does not hold; reload the page to get a new one.');
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

  it('a flood of handshakes without an identity locks no real first-time visitor out', async () => {
    // Two hundred sockets with no cookie, at once (the finding: 2 of 6 visitors refused, 6 of 6 pages without a cookie).
    const flood = Promise.allSettled(Array.from({ length: 200 }, () => attack.rawTab()));
    // Six first-time visitors during the flood, each doing what its page does: buy an identity, connect, join.
    const visitors = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const tab = await attack.tab();
        return value(await tab.emitWithAck('lab:join', {})).nodes.every((n) => n.state === 'up');
      }),
    );
    expect(visitors).toEqual([true, true, true, true, true, true]);
    const flooded = await flood;
    expect(flooded.every((r) => r.status === 'rejected')).toBe(true);
  }, 60_000);
});
