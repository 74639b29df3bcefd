/**
 * An anonymous identity per browser, kept in a signed cookie, so limits can
 * be per browser instead of per socket (a script opens sockets at will) or
 * per IP address (a whole class sits behind one NAT and would share one
 * allowance). The cookie says nothing about the person: 128 random bits and
 * an HMAC of them under a server secret, so a client cannot pick another
 * browser's identity to spend its allowance or reclaim its labs.
 *
 * An identity is bought with work, never handed out for free: the page asks
 * for a challenge (`GET /identity`), finds a nonce worth `workBits` zero bits
 * of SHA-256 (lib/identity-work.ts; a fraction of a second in a browser) and
 * trades it for the cookie (`POST /identity`). A browser pays once and keeps
 * its cookie for a month; a script that drops its cookies pays again for
 * each identity, so many identities cost it in proportion. There is no
 * server-wide minting budget any more: a flood of scripts can spend only its
 * own CPU, never lock real visitors out (a shared budget was itself the
 * lockout). Challenges are stateless (signed, with an expiry); a solved one
 * is remembered until it expires, so one solution buys one identity.
 */
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { leadingZeroBits, workMessage } from '@/lib/identity-work';
import type { IdentityAnswer } from '@/lib/protocol';
import { refusal } from '@/lib/refusal-words';
import { refuse } from '../ops/refusals';

export const BROWSER_COOKIE = 'locklab_browser';
/** Where a page asks for a challenge (GET) and trades its solution for the cookie (POST). */
export const IDENTITY_PATH = '/identity';
/** A learner comes back over weeks; the identity only buys fairness, so a long life costs nothing. */
const COOKIE_MAX_AGE_S = 30 * 24 * 60 * 60;
/** Long enough for a slow phone to solve it, short enough that a stock of solved challenges goes stale. */
const CHALLENGE_TTL_MS = 2 * 60_000;
/** A solution is a decimal nonce; anything longer is not one of ours. */
const MAX_NONCE_LENGTH = 16;
const MAX_BODY_BYTES = 1_024;

export interface BrowserIdentityOptions {
  /** HMAC key; servers behind one proxy share it (LOCKLAB_COOKIE_SECRET) so a cookie from one is good on all. */
  secret: string | null;
  /** Zero bits of SHA-256 an identity costs (LOCKLAB_IDENTITY_WORK_BITS): about 2^bits hashes. */
  workBits: number;
  now?: () => number;
}

export type Redeemed = { ok: true; id: string; setCookie: string } | { ok: false; why: 'malformed' | 'forged' | 'expired' | 'used' | 'too-little-work' };

export class BrowserIdentities {
  private readonly key: Buffer;
  readonly workBits: number;
  private readonly now: () => number;
  /** Solved challenges until they expire: one solution, one identity. Bounded by what scripts can solve in a TTL. */
  private readonly spent = new Map<string, number>();

  constructor(options: BrowserIdentityOptions) {
    this.key = options.secret ? Buffer.from(options.secret, 'utf8') : crypto.randomBytes(32);
    this.workBits = options.workBits;
    this.now = options.now ?? Date.now;
  }

  /** The HMAC of `text` under the server's key, in a domain of its own (so a challenge is never a cookie). */
  private sign(domain: 'identity' | 'challenge', text: string): string {
    return crypto.createHmac('sha256', this.key).update(`${domain}:${text}`).digest('base64url');
  }

  /** The identity in a Cookie header, if this server (or one sharing its secret) issued it for work; null otherwise. */
  fromCookieHeader(header: string | undefined): string | null {
    const raw = cookieValue(header, BROWSER_COOKIE);
    if (!raw) return null;
    const dot = raw.indexOf('.');
    if (dot <= 0) return null;
    const id = raw.slice(0, dot);
    if (!/^[A-Za-z0-9_-]{22,64}$/.test(id)) return null;
    return sameText(raw.slice(dot + 1), this.sign('identity', id)) ? id : null;
  }

  /** A fresh challenge: `<expiry ms>.<random>.<hmac>`, good for CHALLENGE_TTL_MS. */
  challenge(): { challenge: string; bits: number } {
    const payload = `${this.now() + CHALLENGE_TTL_MS}.${crypto.randomBytes(12).toString('base64url')}`;
    return { challenge: `${payload}.${this.sign('challenge', payload)}`, bits: this.workBits };
  }

  /** A solved challenge traded for a new identity, or why not. */
  redeem(challenge: string, nonce: string): Redeemed {
    const parts = challenge.split('.');
    if (parts.length !== 3 || nonce.length > MAX_NONCE_LENGTH || !/^\d+$/.test(nonce)) return { ok: false, why: 'malformed' };
    const [expiry, random, signature] = parts as [string, string, string];
    if (!sameText(signature, this.sign('challenge', `${expiry}.${random}`))) return { ok: false, why: 'forged' };
    const now = this.now();
    const expiresAt = Number(expiry);
    if (!(expiresAt > now)) return { ok: false, why: 'expired' };
    this.forgetExpired(now);
    if (this.spent.has(challenge)) return { ok: false, why: 'used' };
    const digest = crypto.createHash('sha256').update(workMessage(challenge, nonce)).digest();
    if (leadingZeroBits(digest) < this.workBits) return { ok: false, why: 'too-little-work' };
    this.spent.set(challenge, expiresAt);
    const id = crypto.randomBytes(16).toString('base64url');
    const setCookie = `${BROWSER_COOKIE}=${id}.${this.sign('identity', id)}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax`;
    return { ok: true, id, setCookie };
  }

  private forgetExpired(now: number): void {
    // Insertion order is close to expiry order (one TTL for all), so the stale ones are at the front.
    for (const [challenge, expiresAt] of this.spent) {
      if (expiresAt > now) break;
      this.spent.delete(challenge);
    }
  }

  /**
   * Answers `GET /identity` and `POST /identity`; false for any other request.
   * GET: `{verified: true}` for a browser that has an identity, else a challenge.
   * POST `{challenge, nonce}`: the cookie (204), or 403 with the refusal in words.
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    if (url !== IDENTITY_PATH && !url.startsWith(`${IDENTITY_PATH}?`)) return false;
    const json = (status: number, body: IdentityAnswer | { error: ReturnType<ReturnType<typeof refuse>['toLabError']> }) =>
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    if (req.method === 'GET') {
      json(200, this.fromCookieHeader(req.headers.cookie) ? { verified: true } : { verified: false, ...this.challenge() });
      return true;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'GET, POST' }).end();
      return true;
    }
    let body = '';
    let tooBig = false;
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      if (tooBig) return;
      body += chunk;
      if (body.length > MAX_BODY_BYTES) tooBig = true;
    });
    req.on('end', () => {
      const parsed = tooBig ? null : parseSolution(body);
      const redeemed: Redeemed = parsed ? this.redeem(parsed.challenge, parsed.nonce) : { ok: false, why: 'malformed' };
      if (redeemed.ok) {
        // A browser that already holds a good identity keeps it (another of its tabs bought one a moment ago): a
        // second cookie would make the sockets it opened with the first come back as another browser, whose labs
        // are not theirs.
        const kept = this.fromCookieHeader(req.headers.cookie) !== null;
        res.writeHead(204, kept ? { 'cache-control': 'no-store' } : { 'set-cookie': redeemed.setCookie, 'cache-control': 'no-store' }).end();
        return;
      }
      const error = refuse('identity-work', { detail: { why: redeemed.why } }, refusal(`identity.${redeemed.why === 'expired' ? 'expired' : 'rejected'}`));
      json(403, { error: error.toLabError() });
    });
    return true;
  }
}

function parseSolution(body: string): { challenge: string; nonce: string } | null {
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value !== 'object' || value === null) return null;
    const { challenge, nonce } = value as Record<string, unknown>;
    return typeof challenge === 'string' && typeof nonce === 'string' && challenge.length <= 200 ? { challenge, nonce } : null;
  } catch {
    return null;
  }
}

/** Constant-time comparison of two ASCII strings. */
function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
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
