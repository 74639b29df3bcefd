/**
 * The node host: the process that starts every redis-server of the lab
 * server, so that the web server's event loop never forks (node-host.ts says
 * why). Started by the server from a bundle on its standard input, as the
 * server's own user (setpriv needs it to start each lab's nodes as the lab's
 * uid), under a parent-death signal; every node it starts carries one too,
 * so the nodes die with it and it dies with the server. It exits when the
 * server's IPC channel closes.
 */
import type { FromNodeHost, ToNodeHost } from './protocol';
import { spawnNode } from './spawn-node';

function send(message: FromNodeHost): void {
  // The server may be gone between a spawn and its answer: the send then fails and this process exits on
  // the disconnect that follows.
  if (process.connected) process.send?.(message, undefined, undefined, () => undefined);
}

process.on('message', (message: ToNodeHost) => {
  if (message.type !== 'spawn') return;
  const { id } = message;
  spawnNode(message, {
    spawned: (pid, niceError) => send({ type: 'spawned', id, pid, ...(niceError ? { niceError } : {}) }),
    ready: () => send({ type: 'listening', id }),
    exited: (exit) => send({ type: 'exit', id, ...exit }),
    settled: (log) => send({ type: 'settled', id, log }),
  });
});
process.on('disconnect', () => process.exit(0));
// A Ctrl-C or a service manager's SIGTERM reaches the whole process group: the server then stops its labs' nodes
// itself, in order, and this process must still be here to report their exits. It leaves when the server does.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => undefined);
send({ type: 'ready' });
