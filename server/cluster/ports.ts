import net from 'node:net';

/** 6379 is Redis's well-known port: another Redis on the machine may hold it, so the lab never uses it. */
export const FORBIDDEN_PORTS = new Set([6379]);

/**
 * Asks the kernel for a free loopback port. The port is released before the
 * caller binds it, so a race is possible; callers retry on EADDRINUSE.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.unref();
      server.once('error', reject);
      server.listen({ port: 0, host, exclusive: true }, () => {
        const address = server.address();
        const chosen = typeof address === 'object' && address ? address.port : 0;
        server.close(() => resolve(chosen));
      });
    });
    if (port > 0 && !FORBIDDEN_PORTS.has(port)) return port;
  }
}
