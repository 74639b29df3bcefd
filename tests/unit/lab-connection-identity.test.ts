/**
 * The page's socket buys the browser's identity before it connects, and again
 * when the server says it has none (a server restarted with a new secret),
 * without the learner doing anything; a page that cannot get one says why.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LabConnection, type ConnectionHandlers } from '@/components/lab/lab-connection';

let http: HttpServer | null = null;
let server: Server | null = null;
let connection: LabConnection | null = null;
afterEach(async () => {
  connection?.stop();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  http = server = connection = null;
});

/** A server that lets a socket in only once the page has bought `needed` identities. */
async function serverNeeding(needed: () => boolean): Promise<string> {
  http = createServer();
  server = new Server(http);
  server.use((_socket, next) => {
    if (needed()) return next();
    next(Object.assign(new Error('no identity'), { data: { code: 'forbidden', identityRequired: true } }));
  });
  await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

const handlers = (): ConnectionHandlers & { refusals: { message: string; retrying: boolean }[] } => {
  const refusals: { message: string; retrying: boolean }[] = [];
  return {
    refusals,
    connected: vi.fn(),
    lost: vi.fn(),
    refused: (message, retrying) => refusals.push({ message, retrying }),
    push: vi.fn(),
    error: vi.fn(),
  };
};

describe('LabConnection and the browser identity', () => {
  it('buys an identity before connecting, and again when the server no longer knows it', async () => {
    let bought = 0;
    // The first identity is forgotten (as by a server restarted with a new secret); the second is known.
    const url = await serverNeeding(() => bought >= 2);
    const identify = vi.fn(async () => void bought++);
    connection = new LabConnection(() => io(url, { autoConnect: false, transports: ['websocket'], reconnection: false }), identify);
    const h = handlers();
    connection.start(h);
    await vi.waitFor(() => expect(h.connected).toHaveBeenCalledTimes(1));
    expect(identify).toHaveBeenCalledTimes(2);
    // The page was told it is still connecting, never that it failed.
    expect(h.refusals).toEqual([{ message: 'no identity', retrying: true }]);
  });

  it('gives up, in the server\'s words, when identities keep being refused (cookies blocked)', async () => {
    const url = await serverNeeding(() => false);
    const identify = vi.fn(async () => undefined);
    connection = new LabConnection(() => io(url, { autoConnect: false, transports: ['websocket'], reconnection: false }), identify);
    const h = handlers();
    connection.start(h);
    await vi.waitFor(() => expect(h.refusals.at(-1)).toEqual({ message: 'no identity', retrying: false }));
    expect(identify).toHaveBeenCalledTimes(3);
  });

  it('says why when no identity could be bought', async () => {
    const url = await serverNeeding(() => true);
    connection = new LabConnection(
      () => io(url, { autoConnect: false, transports: ['websocket'], reconnection: false }),
      async () => {
        throw new Error('That proof of work does not hold; reload the page to get a new one.');
      },
    );
    const h = handlers();
    connection.start(h);
    await vi.waitFor(() => expect(h.refusals).toEqual([{ message: 'That proof of work does not hold; reload the page to get a new one.', retrying: false }]));
    expect(h.connected).not.toHaveBeenCalled();
  });
});
