/**
 * The browser's anonymous identity: a signed cookie a client cannot forge or
 * borrow from another server's secret, handed out no faster than the budget.
 */
import { describe, expect, it } from 'vitest';
import { BROWSER_COOKIE, BrowserIdentities, cookieValue } from '@/server/realtime/browser-identity';

const cookieOf = (setCookie: string) => setCookie.split(';')[0]!;

describe('browser identities', () => {
  it('reads back the identity it signed, from among other cookies', () => {
    const ids = new BrowserIdentities({ secret: 'shared', burst: 5, perSecond: 1 });
    const minted = ids.mint()!;
    expect(minted.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(minted.setCookie).toMatch(new RegExp(`^${BROWSER_COOKIE}=${minted.id}\\.[A-Za-z0-9_-]{43}; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax$`));
    expect(ids.fromCookieHeader(`theme=dark; ${cookieOf(minted.setCookie)}; other=1`)).toBe(minted.id);
    // Another server with the same secret (LOCKLAB_COOKIE_SECRET) knows it too.
    expect(new BrowserIdentities({ secret: 'shared', burst: 1, perSecond: 1 }).fromCookieHeader(cookieOf(minted.setCookie))).toBe(minted.id);
  });

  it('refuses a forged, altered or foreign cookie', () => {
    const ids = new BrowserIdentities({ secret: 'shared', burst: 5, perSecond: 1 });
    const other = new BrowserIdentities({ secret: null, burst: 5, perSecond: 1 });
    const victim = ids.mint()!;
    const [, value] = cookieOf(victim.setCookie).split('=') as [string, string];
    const [id, signature] = value.split('.') as [string, string];
    expect(ids.fromCookieHeader(`${BROWSER_COOKIE}=${id}.${'A'.repeat(signature.length)}`)).toBeNull();
    expect(ids.fromCookieHeader(`${BROWSER_COOKIE}=${id.slice(0, -1)}x.${signature}`)).toBeNull();
    expect(ids.fromCookieHeader(`${BROWSER_COOKIE}=${id}`)).toBeNull();
    expect(ids.fromCookieHeader(`${BROWSER_COOKIE}=${id}.${signature}x`)).toBeNull();
    expect(ids.fromCookieHeader(cookieOf(other.mint()!.setCookie))).toBeNull();
    expect(ids.fromCookieHeader(undefined)).toBeNull();
  });

  it('hands out no more new identities than its budget', () => {
    const ids = new BrowserIdentities({ secret: null, burst: 3, perSecond: 0.001 });
    const minted = Array.from({ length: 5 }, () => ids.mint());
    expect(minted.filter(Boolean)).toHaveLength(3);
    expect(new Set(minted.filter(Boolean).map((m) => m!.id)).size).toBe(3);
  });

  it('parses one cookie out of a header', () => {
    expect(cookieValue('a=1; b = 2 ;c=3', 'b')).toBe('2');
    expect(cookieValue('a=1', 'b')).toBeNull();
    expect(cookieValue('', 'b')).toBeNull();
  });
});
