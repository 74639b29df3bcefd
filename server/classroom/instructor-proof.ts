/**
 * Remembering the instructor in a browser: once the token was given (a
 * class created or joined with it), the socket's answer carries a ticket,
 * and the page trades it (POST INSTRUCTOR_SESSION_PATH) for an HttpOnly,
 * SameSite=Strict cookie; a later socket of that browser joins as the
 * instructor on the cookie alone. Neither holds the token: both are
 * `<kind>.<expiry>.<nonce>.<HMAC>` under a key derived from the token, so
 * every server that accepts the token accepts them (no shared secret to
 * configure), and a new token voids them all.
 *
 * Why a ticket and not the cookie straight away: a socket's answer cannot
 * set a cookie, and an HTTP endpoint that took the token itself would be one
 * more place to guess it, beside the socket's rate-limited one. A ticket is
 * worth a minute; page scripts see it, never the cookie.
 */
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cookieValue } from '../realtime/browser-identity';

export const INSTRUCTOR_COOKIE = 'locklab_instructor';
/** Long enough to carry the page's POST after its socket's answer, on a slow connection. */
const TICKET_MS = 60_000;
/** A teaching day: the cookie is renewed on every instructor join, so a class in progress never loses it. */
const SESSION_MS = 12 * 60 * 60_000;
/** A ticket is about 80 characters; anything bigger is not one. */
const MAX_BODY_BYTES = 1_024;

type Kind = 'ticket' | 'session';

export class InstructorProofs {
  private readonly key: Buffer;

  constructor(token: string) {
    this.key = crypto.createHmac('sha256', crypto.createHash('sha256').update(token, 'utf8').digest()).update('locklab instructor proof v1').digest();
  }

  private mac(kind: Kind, expires: number, nonce: string): string {
    return crypto.createHmac('sha256', this.key).update(`${kind}.${expires}.${nonce}`).digest('base64url');
  }

  private issue(kind: Kind, lifeMs: number, now: number): string {
    const expires = Math.floor((now + lifeMs) / 1000);
    const nonce = crypto.randomBytes(12).toString('base64url');
    return `${kind}.${expires}.${nonce}.${this.mac(kind, expires, nonce)}`;
  }

  private valid(kind: Kind, value: string | null | undefined, now: number): boolean {
    if (!value || value.length > 200) return false;
    const parts = value.split('.');
    if (parts.length !== 4 || parts[0] !== kind || !/^\d{1,12}$/.test(parts[1]!) || !/^[A-Za-z0-9_-]{16}$/.test(parts[2]!)) return false;
    const expires = Number(parts[1]);
    if (expires * 1000 <= now) return false;
    const given = Buffer.from(parts[3]!);
    const expected = Buffer.from(this.mac(kind, expires, parts[2]!));
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }

  /** For the socket that just proved the token (or the cookie): trade it for the cookie within a minute. */
  ticket(now = Date.now()): string {
    return this.issue('ticket', TICKET_MS, now);
  }

  /** The Set-Cookie value for a valid ticket; null otherwise. */
  cookieFor(ticket: string, now = Date.now()): string | null {
    if (!this.valid('ticket', ticket, now)) return null;
    return `${INSTRUCTOR_COOKIE}=${this.issue('session', SESSION_MS, now)}; Path=/; Max-Age=${SESSION_MS / 1000}; HttpOnly; SameSite=Strict`;
  }

  /** Whether a Cookie header (a socket's handshake) carries this server's instructor cookie, unexpired. */
  acceptsCookie(header: string | undefined, now = Date.now()): boolean {
    return this.valid('session', cookieValue(header, INSTRUCTOR_COOKIE), now);
  }
}

/** Forgets the instructor in this browser ("Forget me on this browser"). */
export const CLEAR_INSTRUCTOR_COOKIE = `${INSTRUCTOR_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`;

/**
 * POST `{ "ticket": "…" }`: sets the cookie (204), or 403 for a bad or stale ticket. DELETE: clears it (204).
 * Only from a page of this site (Origin), bodies of at most 1 KiB.
 */
export async function serveInstructorSession(req: IncomingMessage, res: ServerResponse, proofs: InstructorProofs | null, sameSite: (req: IncomingMessage) => boolean): Promise<void> {
  const answer = (status: number, text: string, headers: Record<string, string> = {}) =>
    void res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(status === 204 ? undefined : `${text}\n`);
  if (!sameSite(req)) return answer(403, 'Lock Lab: only a page of this site may do that');
  if (req.method === 'DELETE') return answer(204, '', { 'set-cookie': CLEAR_INSTRUCTOR_COOKIE });
  if (req.method !== 'POST') return answer(405, 'Lock Lab: POST a ticket, or DELETE', { allow: 'POST, DELETE' });
  const body = await readBody(req, MAX_BODY_BYTES);
  if (body === null) return answer(413, 'Lock Lab: that is not a ticket (too long)', { connection: 'close' });
  let ticket: unknown;
  try {
    ticket = (JSON.parse(body) as { ticket?: unknown }).ticket;
  } catch {
    return answer(400, 'Lock Lab: send JSON { "ticket": "…" }');
  }
  const cookie = typeof ticket === 'string' && proofs ? proofs.cookieFor(ticket) : null;
  if (!cookie) return answer(403, 'Lock Lab: that ticket is not valid (or more than a minute old); give the instructor token again');
  answer(204, '', { 'set-cookie': cookie });
}

/** The body as text, or null past `max` bytes (the rest is read and dropped, so the answer still reaches the client). */
function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > max ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
