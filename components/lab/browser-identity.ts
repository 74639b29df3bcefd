/**
 * The page's side of the browser identity (server/realtime/browser-identity.ts):
 * before its socket connects, a page makes sure the browser has an identity,
 * and if not, buys one with work — a challenge from `GET /identity`, a nonce
 * found in slices that leave the page responsive (lib/identity-work.ts), the
 * cookie from `POST /identity`. A browser pays this once a month; the cookie
 * is HttpOnly, so the page only ever learns that it has one.
 */
import { solveWork } from '@/lib/identity-work';
import type { IdentityAnswer } from '@/lib/protocol';

/** Tries per slice: about ten milliseconds of work between two turns of the page's event loop. */
const SLICE_TRIES = 16_384;

/**
 * A turn of the event loop through a message, not a timer: browsers stretch chained timers (to 4 ms, and
 * to a second in a tab they count as hidden), which made the same work take 0.3 s in one page and 5 s in
 * the next; a message is delivered at once.
 */
const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

/** Resolves once the browser holds an identity; rejects (with the server's words as its message) if none could be had. */
export async function ensureBrowserIdentity(base = ''): Promise<void> {
  const asked = await fetch(`${base}/identity`, { credentials: 'same-origin', cache: 'no-store' });
  if (!asked.ok) throw new Error(`the lab server did not answer /identity (${asked.status})`);
  const answer = (await asked.json()) as IdentityAnswer;
  if (answer.verified) return;
  const nonce = await solveWork(answer.challenge, answer.bits, { sliceTries: SLICE_TRIES, pause: nextTask });
  const given = await fetch(`${base}/identity`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ challenge: answer.challenge, nonce }),
  });
  if (!given.ok) {
    const body = (await given.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? `the lab server refused the identity (${given.status})`);
  }
}
