/**
 * Who may read /metrics. It tells how many labs, runs and learners the server
 * holds and how close it is to each limit: an operator's view, and a map for
 * whoever wants to fill the server. So by default only a request made on this
 * machine, straight to the server, is served; from anywhere else (a network,
 * or through a proxy, which forwards from loopback but says whom for) it takes
 * the bearer token LOCKLAB_METRICS_TOKEN. A page from another site (a
 * foreign Origin, which a learner's browser would send to a lab on their own
 * machine) is never served without the token either.
 */
import { timingSafeEqual } from 'node:crypto';
import type http from 'node:http';

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

function sameOrigin(req: http.IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

function bearerMatches(req: http.IncomingMessage, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether `req` may read /metrics; `token` is LOCKLAB_METRICS_TOKEN (null: none set, so loopback only). */
export function metricsAllowed(req: http.IncomingMessage, token: string | null): boolean {
  if (token !== null && bearerMatches(req, token)) return true;
  const direct = FORWARDING_HEADERS.every((name) => req.headers[name] === undefined);
  return direct && isLoopback(req.socket.remoteAddress) && sameOrigin(req);
}
