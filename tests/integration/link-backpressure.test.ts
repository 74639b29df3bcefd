/**
 * A link holds at most about LANE_LIMIT_BYTES per direction of a connection:
 * a learner writing as fast as it can into a node that does not read (a
 * paused node), or into a link delayed far ahead, is paused as a full TCP
 * window would pause it, instead of filling the link process's heap.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LANE_LIMIT_BYTES, LinkProxy } from '@/server/cluster/link-proxy';
import { waitFor } from './lab-fixture';

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A node stand-in that accepts connections and either reads (and drops) everything or reads nothing. */
async function sink(reads: boolean): Promise<number> {
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    sockets.push(socket);
    if (reads) socket.on('data', () => undefined);
    else socket.pause();
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  closers.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as net.AddressInfo).port;
}

/** Writes `bytes` through the link at once; resolves when the flow has stopped with the writer still holding some (backpressure reached it). */
async function flood(link: LinkProxy, bytes: number): Promise<net.Socket> {
  const port = await link.start();
  const client = net.connect({ port, host: '127.0.0.1' });
  client.on('error', () => undefined);
  closers.push(() => client.destroy());
  await new Promise<void>((resolve) => client.once('connect', () => resolve()));
  client.write(Buffer.alloc(bytes, 1));
  let last = -1;
  await waitFor(
    () => {
      const pending = client.writableLength;
      const stalled = pending === last && pending > 0;
      last = pending;
      return stalled;
    },
    'the writer to be held back',
    10_000,
    250,
  );
  return client;
}

describe('a link under a flood', () => {
  it('pauses the writer when the node does not read, holding about its limit', async () => {
    const node = await sink(false);
    const link = new LinkProxy('flood → stopped node', { port: () => node });
    closers.push(() => link.close());
    await flood(link, 64 * 1024 * 1024);
    expect(link.heldBytes).toBeLessThanOrEqual(LANE_LIMIT_BYTES + 256 * 1024);
  });

  it('pauses the writer when the link delays far ahead, holding about its limit', async () => {
    const node = await sink(true);
    const link = new LinkProxy('flood → delayed link', { port: () => node });
    closers.push(() => link.close());
    link.setDelay(60_000);
    await flood(link, 64 * 1024 * 1024);
    expect(link.heldBytes).toBeLessThanOrEqual(LANE_LIMIT_BYTES + 256 * 1024);
  });
});
