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

/** This page's purchase in progress: the page's sockets (its lab, a classroom) wait for the same one. */
let buying: Promise<void> | null = null;

/**
 * Resolves once the browser holds an identity; rejects (with the server's words as its message) if none could be had.
 *
 * One identity per browser, bought once: two purchases at once (a page's two sockets, tabs opened together) would
 * each get a cookie and the last one set would win, so a socket that connected with the first would come back
 * after a reconnect as another browser, and its lab (which belongs to the first) would no longer be its own. The
 * page's sockets share one purchase; tabs of one browser take turns through a Web Lock where the browser has them
 * (secure contexts) and ask again once it is their turn; and the server keeps a cookie that is already good.
 */
export function ensureBrowserIdentity(base = ''): Promise<void> {
  if (buying) return buying;
  const locks = typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { locks?: LockManager }).locks;
  const purchase: Promise<void> = locks ? locks.request(`locklab-identity${base}`, (): Promise<void> => buyIdentity(base)).then(() => undefined) : buyIdentity(base);
  const shared = purchase.finally(() => {
    buying = null;
  });
  buying = shared;
  return shared;
}

async function buyIdentity(base: string): Promise<void> {
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
