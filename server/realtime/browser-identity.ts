/**
 * An anonymous identity per browser, kept in a signed cookie, so limits can
 * be per browser instead of per socket (a script opens sockets at will) or
 * per IP address (a whole class sits behind one NAT and would share one
 * allowance). The cookie says nothing about the person: 128 random bits and
 * an HMAC of them under a server secret, so a client cannot pick another
 * browser's identity to spend its allowance or reclaim its labs.
 */
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TokenBucket } from './token-bucket';

export const BROWSER_COOKIE = 'locklab_browser';
/** A learner comes back over weeks; the identity only buys fairness, so a long life costs nothing. */
const COOKIE_MAX_AGE_S = 30 * 24 * 60 * 60;

export interface BrowserIdentityOptions {
  /** HMAC key; servers behind one proxy share it (LOCKLAB_COOKIE_SECRET) so a cookie from one is good on all. */
  secret: string | null;
  /** New identities handed out server-wide: a burst, then this many a second. */
  burst: number;
  perSecond: number;
}

export class BrowserIdentities {
  private readonly key: Buffer;
  /**
   * A client that drops its cookies gets a new identity on every request,
   * and with it a fresh allowance of labs and sockets; this bucket is what
   * still bounds it. It is server-wide on purpose (not per IP: see above),
   * and generous: a class of 60 opening the course at once (a page and a
   * socket each, so up to 120 identities if none had a cookie yet) fits in
   * the burst, and 10 a second refills it within seconds.
   */
  private readonly minting: TokenBucket;

  constructor(options: BrowserIdentityOptions) {
    this.key = options.secret ? Buffer.from(options.secret, 'utf8') : crypto.randomBytes(32);
    this.minting = new TokenBucket(options.burst, options.perSecond);
  }

  private sign(id: string): string {
    return crypto.createHmac('sha256', this.key).update(id).digest('base64url');
  }

  /** The identity in a Cookie header, if this server (or one sharing its secret) signed it; null otherwise. */
  fromCookieHeader(header: string | undefined): string | null {
    const raw = cookieValue(header, BROWSER_COOKIE);
    if (!raw) return null;
    const dot = raw.indexOf('.');
    if (dot <= 0) return null;
    const id = raw.slice(0, dot);
    if (!/^[A-Za-z0-9_-]{22,64}$/.test(id)) return null;
    const given = Buffer.from(raw.slice(dot + 1));
    const expected = Buffer.from(this.sign(id));
    return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? id : null;
  }

  /** A new identity and the Set-Cookie value carrying it; null when too many were handed out just now. */
  mint(): { id: string; setCookie: string } | null {
    if (!this.minting.take()) return null;
    const id = crypto.randomBytes(16).toString('base64url');
    const setCookie = `${BROWSER_COOKIE}=${id}.${this.sign(id)}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax`;
    return { id, setCookie };
  }

  /**
   * For a page response: makes sure the browser leaves with an identity, so
   * its socket (opened by that page) already carries one. Assets under
   * /_next/ are skipped: a cookie-less client would otherwise spend the
   * minting budget on every script and stylesheet.
   */
  ensureOnPage(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' || req.url?.startsWith('/_next/')) return;
    if (this.fromCookieHeader(req.headers.cookie)) return;
    const minted = this.mint();
    if (minted) res.setHeader('Set-Cookie', minted.setCookie);
  }
}

/** One cookie's value from a Cookie header (no decoding: ours is base64url). */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
