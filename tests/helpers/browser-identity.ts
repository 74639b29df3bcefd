/**
 * What a test client must do to get a lab, as a page does it
 * (components/lab/browser-identity.ts): buy a browser identity with work —
 * `GET /identity` for a challenge, a nonce from lib/identity-work.ts,
 * `POST /identity` for the signed cookie — and open its socket with that
 * cookie. A socket without one is refused at the handshake.
 */
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { solveWork } from '@/lib/identity-work';
import type { ClientToServerEvents, IdentityAnswer, ServerToClientEvents } from '@/lib/protocol';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A new browser identity from the server at `url`, as a Cookie header value ("locklab_browser=…"). */
export async function browserCookie(url: string): Promise<string> {
  const asked = await fetch(`${url}/identity`);
  const answer = (await asked.json()) as IdentityAnswer;
  if (answer.verified) throw new Error('a request without a cookie was told it has an identity');
  const nonce = await solveWork(answer.challenge, answer.bits);
  const given = await fetch(`${url}/identity`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ challenge: answer.challenge, nonce }),
  });
  await given.arrayBuffer();
  const cookie = given.headers.getSetCookie().find((c) => c.startsWith('locklab_browser='));
  if (given.status !== 204 || !cookie) throw new Error(`the server gave no identity for the work (${given.status})`);
  return cookie.split(';')[0]!;
}

export interface TabOptions extends Partial<ManagerOptions & SocketOptions> {
  /** The browser's cookie (several tabs of one browser); absent: a new browser of its own. */
  cookie?: string;
}

/**
 * A socket as a tab opens it: with `cookie`, or a fresh identity; not yet
 * connected when `autoConnect` is false, connected (or rejected with the
 * handshake's refusal) otherwise.
 */
export async function openTab(url: string, options: TabOptions = {}): Promise<TestSocket> {
  const { cookie = await browserCookie(url), ...rest } = options;
  const socket: TestSocket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true, ...rest, extraHeaders: { ...rest.extraHeaders, cookie } });
  if (rest.autoConnect === false) return socket;
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
  return socket;
}

/**
 * The same, returned at once: the socket connects once its identity is
 * bought (what it emits before then is buffered by socket.io), for tests
 * written as `const tab = connect(); await tab.emitWithAck(...)`.
 */
export function tabSoon(url: string, options: TabOptions = {}): TestSocket {
  const { cookie, ...rest } = options;
  const socket: TestSocket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true, ...rest, autoConnect: false });
  void (cookie ? Promise.resolve(cookie) : browserCookie(url)).then((bought) => {
    socket.io.opts.extraHeaders = { ...rest.extraHeaders, cookie: bought };
    socket.connect();
  });
  return socket;
}
