import type { IncomingMessage } from 'node:http';

/**
 * A browser on another site must not drive a lab (its learner's nodes, or a
 * classroom's). Browsers always send Origin on a socket handshake; programs
 * without one (tests, tools) are not a cross-site threat and are let in.
 */
export function originAllowed(req: IncomingMessage, allowed: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  if (allowed.includes(origin)) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}
