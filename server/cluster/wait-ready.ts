import net from 'node:net';

/**
 * Resolves when a redis-server on `port` answers PING as `user`. Uses a raw
 * socket (no client library) so each probe costs one connect and one write;
 * gives up early when `stillStarting()` says the process has died.
 */
export async function waitForPing(opts: {
  port: number;
  username: string;
  password: string;
  timeoutMs: number;
  stillStarting: () => boolean;
}): Promise<void> {
  const deadline = performance.now() + opts.timeoutMs;
  const probe = `AUTH ${opts.username} ${opts.password}\r\nPING\r\n`;
  for (let wait = 2; ; wait = Math.min(wait * 2, 25)) {
    if (!opts.stillStarting()) throw new Error('redis-server exited while starting');
    if (performance.now() > deadline) throw new Error(`redis-server on port ${opts.port} did not answer PING within ${opts.timeoutMs} ms`);
    const answered = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port: opts.port, host: '127.0.0.1' });
      let buffer = '';
      const done = (value: boolean) => {
        socket.destroy();
        resolve(value);
      };
      socket.setTimeout(500, () => done(false));
      socket.once('error', () => done(false));
      socket.once('connect', () => socket.write(probe));
      socket.on('data', (chunk) => {
        buffer += chunk.toString('latin1');
        if (buffer.includes('+PONG')) done(true);
        // -LOADING while an AOF is read back, or another error: not ready yet.
        else if (buffer.includes('\r\n-') || buffer.startsWith('-')) done(false);
      });
    });
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
