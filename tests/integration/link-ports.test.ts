/**
 * A link cut with `refuse` has no listener, yet must come back on the same
 * port. Against real nodes: the port is kept out of everyone else's way, and
 * when another program takes it anyway, a heal says so and a restore still
 * gives the next run working links.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralRange, isLinkPortHeld } from '@/server/cluster/link-ports';
import { fault, learnerVia, startLab, tcpConnect } from './lab-fixture';

function occupy(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}
const closeServer = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

// Which ports are held is this process's to say only when the links run here: this file runs them on the
// test's own loop (LOCKLAB_LINK_PROCESS=0, the fallback); link-process.test.ts covers ports in the link process.
process.env.LOCKLAB_LINK_PROCESS = '0';

describe('link ports under a refuse cut', () => {
  it('a link port lies below the kernel ephemeral range and stays held while the link refuses', async () => {
    const lab = await startLab({ nodes: 2 });
    const port = await lab.links.portFor(1, 1);
    const ephemeral = ephemeralRange();
    if (ephemeral) expect(port).toBeLessThan(ephemeral.low);
    expect(port).not.toBe(6379);
    await fault(lab, 'link-cut', { client: 1, node: 1, mode: 'refuse' });
    expect(await tcpConnect(port)).toBe('ECONNREFUSED');
    expect(isLinkPortHeld(port)).toBe(true);
    // Every other link this process opens meanwhile gets a port of its own.
    const others = await Promise.all([1, 2, 3].flatMap((client) => [1, 2].map((node) => lab.links.portFor(client, node))));
    expect(others.filter((p) => p === port)).toEqual([port]); // only Client 1 → Node 1 itself
    await fault(lab, 'link-heal', { client: 1, node: 1 });
    expect(await lab.links.portFor(1, 1)).toBe(port);
    expect(await (await learnerVia(lab, 1, 1)).ping()).toBe('PONG');
  });

  it('when another program takes the port of a refusing link: the heal fails with a clear error, and a restore gives a working link', async () => {
    const lab = await startLab({ nodes: 2 });
    const port = await lab.links.portFor(1, 2);
    await fault(lab, 'link-cut', { client: 1, node: 2, mode: 'refuse' });
    const squatter = await occupy(port);
    try {
      await expect(fault(lab, 'link-heal', { client: 1, node: 2 })).rejects.toThrow(`Client 1 → Node 2 could not listen on port ${port} again`);
      expect(lab.links.view(1, 2).cut).toBe('refuse');
      await lab.restore();
      expect(lab.links.view(1, 2).cut).toBeNull();
      const fresh = await lab.links.portFor(1, 2);
      expect(fresh).not.toBe(port);
      expect(await (await learnerVia(lab, 1, 2)).ping()).toBe('PONG');
      expect(isLinkPortHeld(port)).toBe(false);
    } finally {
      await closeServer(squatter);
    }
  });
});
