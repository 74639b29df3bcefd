/**
 * The handshake's gate: only a browser identity bought with work
 * (browser-identity.ts) opens a socket, and a browser holds at most
 * `socketsPerBrowser` at once. Each socket learns whose it is
 * (`socket.data.browser`); without identities every socket is a browser of
 * its own.
 */
import type { HandshakeRefusal } from '@/lib/protocol';
import type { LabOperationError } from '@/lib/result';
import { refusal } from '@/lib/refusal-words';
import { refuse } from '../ops/refusals';
import type { BrowserIdentities } from './browser-identity';
import type { LabServer } from './socket-server';

/** A refused handshake: socket.io carries `data` to the page's connect_error, with the refusal's words. */
export const connectError = (error: LabOperationError, extra: Partial<HandshakeRefusal> = {}): Error => {
  const data: HandshakeRefusal = { code: error.code, ...(error.words ? { words: error.words } : {}), ...extra };
  return Object.assign(new Error(error.message), { data });
};

export function admitBrowsers(io: LabServer, identities: BrowserIdentities | undefined, socketsPerBrowser = Infinity): void {
  const socketsByBrowser = new Map<string, Set<string>>();
  io.use((socket, next) => {
    if (!identities) {
      socket.data.browser = `socket:${socket.id}`;
      return next();
    }
    // No cookie, a forged one or one this server cannot read is told so, and the page gets one and connects again.
    const browser = identities.fromCookieHeader(socket.request.headers.cookie);
    if (!browser)
      return next(connectError(refuse('identity-required', { socket: socket.id }, refusal('identity.required')), { identityRequired: true }));
    const open = socketsByBrowser.get(browser) ?? new Set<string>();
    if (open.size >= socketsPerBrowser)
      return next(
        connectError(
          refuse('sockets-per-browser', { browser, socket: socket.id, detail: { open: open.size, limit: socketsPerBrowser } }, refusal('limit.sockets', { cap: socketsPerBrowser })),
        ),
      );
    // Counted from here, not from 'connection': another handshake may pass this check before that event.
    open.add(socket.id);
    socketsByBrowser.set(browser, open);
    const release = () => {
      open.delete(socket.id);
      if (open.size === 0 && socketsByBrowser.get(browser) === open) socketsByBrowser.delete(browser);
    };
    socket.conn.once('close', release);
    socket.once('disconnect', release);
    socket.data.browser = browser;
    next();
  });
}
