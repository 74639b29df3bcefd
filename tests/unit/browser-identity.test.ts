/**
 * The browser's anonymous identity: bought with work (a signed challenge, a
 * nonce worth its zero bits), one identity per solution, a cookie a client
 * cannot forge or borrow from another server's secret; and the page's solver
 * hashes exactly as the server checks.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { leadingZeroBits, sha256Hex, solveWork, workMessage } from '@/lib/identity-work';
import { BROWSER_COOKIE, BrowserIdentities, cookieValue, type Redeemed } from '@/server/realtime/browser-identity';

const cookieOf = (setCookie: string) => setCookie.split(';')[0]!;
const BITS = 10;

async function buy(ids: BrowserIdentities): Promise<Extract<Redeemed, { ok: true }>> {
  const { challenge, bits } = ids.challenge();
  const redeemed = ids.redeem(challenge, await solveWork(challenge, bits));
  if (!redeemed.ok) throw new Error(`not redeemed: ${redeemed.why}`);
  return redeemed;
}

/** A nonce that does NOT have the zero bits asked for. */
function lazyNonce(challenge: string, bits: number): string {
  for (let n = 0; ; n++) {
    const digest = crypto.createHash('sha256').update(workMessage(challenge, String(n))).digest();
    if (leadingZeroBits(digest) < bits) return String(n);
  }
}

describe('browser identities', () => {
  it("the page's SHA-256 is node:crypto's, across block boundaries", () => {
    for (const length of [0, 3, 55, 56, 63, 64, 65, 119, 120, 200])
      expect(sha256Hex('a'.repeat(length))).toBe(crypto.createHash('sha256').update('a'.repeat(length)).digest('hex'));
  });

  it('hands out an identity for a solved challenge, and reads it back from among other cookies', async () => {
    const ids = new BrowserIdentities({ secret: 'shared', workBits: BITS });
    const bought = await buy(ids);
    expect(bought.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(bought.setCookie).toMatch(new RegExp(`^${BROWSER_COOKIE}=${bought.id}\\.[A-Za-z0-9_-]{43}; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax$`));
    expect(ids.fromCookieHeader(`theme=dark; ${cookieOf(bought.setCookie)}; other=1`)).toBe(bought.id);
    // Another server with the same secret (LOCKLAB_COOKIE_SECRET) knows it too.
    expect(new BrowserIdentities({ secret: 'shared', workBits: BITS }).fromCookieHeader(cookieOf(bought.setCookie))).toBe(bought.id);
  });

  it('refuses too little work, a reused, forged, expired or foreign challenge', async () => {
    let now = 1_000_000;
    const ids = new BrowserIdentities({ secret: 'shared', workBits: BITS, now: () => now });
    const { challenge } = ids.challenge();
    expect(ids.redeem(challenge, lazyNonce(challenge, BITS))).toEqual({ ok: false, why: 'too-little-work' });
    const nonce = await solveWork(challenge, BITS);
    expect(ids.redeem(challenge, nonce).ok).toBe(true);
    // One solution, one identity.
    expect(ids.redeem(challenge, nonce)).toEqual({ ok: false, why: 'used' });
    // A challenge made up by the client, or by a server with another key.
    const [expiry, random] = challenge.split('.') as [string, string];
    expect(ids.redeem(`${expiry}.${random}.${'A'.repeat(43)}`, nonce)).toEqual({ ok: false, why: 'forged' });
    const foreign = new BrowserIdentities({ secret: 'other', workBits: BITS, now: () => now }).challenge().challenge;
    expect(ids.redeem(foreign, await solveWork(foreign, BITS))).toEqual({ ok: false, why: 'forged' });
    expect(ids.redeem(challenge, 'x1')).toEqual({ ok: false, why: 'malformed' });
    // Solved too late: a stock of solved challenges goes stale.
    const late = ids.challenge().challenge;
    const lateNonce = await solveWork(late, BITS);
    now += 3 * 60_000;
    expect(ids.redeem(late, lateNonce)).toEqual({ ok: false, why: 'expired' });
  });

  it('refuses a forged, altered or foreign cookie', async () => {
    const ids = new BrowserIdentities({ secret: 'shared', workBits: BITS });
    const other = new BrowserIdentities({ secret: null, workBits: BITS });
    const victim = await buy(ids);
    const [, value] = cookieOf(victim.setCookie).split('=') as [string, string];
    const [id, signature] = value.split('.') as [string, string];
    expect(ids.fromCookieHeader(`${BROWSER_COOKIE}=${id}.${'A'.repeat(signature.length)}`)).toBeNull();
    expect(ids.fromCookieHeader(`${BROWSER_COOKIE}=${id.slice(0, -1)}x.${signature}`)).toBeNull();
    expect(ids.fromCookieHeader(`${BROWSER_COOKIE}=${id}`)).toBeNull();
    expect(ids.fromCookieHeader(`${BROWSER_COOKIE}=${id}.${signature}x`)).toBeNull();
    expect(ids.fromCookieHeader(cookieOf((await buy(other)).setCookie))).toBeNull();
    expect(ids.fromCookieHeader(undefined)).toBeNull();
    // A challenge is signed in another domain than a cookie: it cannot be passed off as one.
    const { challenge } = ids.challenge();
    const [expiry, random, challengeSignature] = challenge.split('.') as [string, string, string];
    expect(ids.fromCookieHeader(`${BROWSER_COOKIE}=${expiry}${random}.${challengeSignature}`)).toBeNull();
  });

  it('costs about 2^bits hashes: the solutions found have the zero bits, and the work grows with the bits', async () => {
    const ids = new BrowserIdentities({ secret: null, workBits: 14 });
    let tries = 0;
    for (let i = 0; i < 8; i++) {
      const { challenge, bits } = ids.challenge();
      const nonce = await solveWork(challenge, bits);
      tries += Number(nonce) + 1;
      expect(leadingZeroBits(crypto.createHash('sha256').update(workMessage(challenge, nonce)).digest())).toBeGreaterThanOrEqual(14);
    }
    // Eight geometric draws of mean 2^14: their sum is far from 0 and far below 2^14 × 8 × 4.
    expect(tries).toBeGreaterThan(2 ** 14 / 4);
    expect(tries).toBeLessThan(2 ** 14 * 8 * 4);
  });

  it('parses one cookie out of a header', () => {
    expect(cookieValue('a=1; b = 2 ;c=3', 'b')).toBe('2');
    expect(cookieValue('a=1', 'b')).toBeNull();
    expect(cookieValue('', 'b')).toBeNull();
  });
});
