/**
 * The link process: every link proxy of the lab server, every byte learners
 * and replicas send to a node, out of the web server's event loop. Started by
 * `link-host.ts` (niced, with its own heap limit, unprivileged when the server
 * runs as root), from a bundle on its standard input: it never reads the
 * checkout, which may be private to the server's user. It exits when the server does (its IPC channel closes), so it
 * never outlives it. Should it die, the server starts another and opens every
 * link again on its port: the runs going on lose their connections, nothing else.
 */
import { LabOperationError } from '@/lib/result';
import { LinkProxy } from '../link-proxy';
import type { FromLinkProcess, LinkCall, ToLinkProcess } from './protocol';
import { LabSockets } from './lab-sockets';

const links = new Map<number, LinkProxy>();
/** Each lab's share of this process's descriptors; the server says how many labs share them. */
const sockets = new LabSockets((refused) => send({ type: 'refused', ...refused }));
/**
 * Where each link's node is, as the server last said (it says so right after opening a link, and again
 * whenever the node's state or port changes): a connection goes there without a round trip.
 */
const known = new Map<number, number | null>();
/** Opens go in this order, and calls wait behind them: a reopened link must listen before it answers. */
let opening: Promise<void> = Promise.resolve();

function send(message: FromLinkProcess): void {
  // The server may be gone between a call and its answer: the send then fails (EPIPE) and this process
  // exits on the disconnect that follows, quietly, rather than on an unhandled 'error'.
  if (process.connected) process.send?.(message, undefined, undefined, () => undefined);
}

function targetOf(id: number): () => number | null {
  return () => known.get(id) ?? null;
}

async function call(link: LinkProxy, what: LinkCall): Promise<number> {
  switch (what.op) {
    case 'listen':
      return link.ensureListening();
    case 'start':
      return link.start();
    case 'cut':
      await link.cutLink(what.mode);
      return link.port;
    case 'heal':
      await link.heal();
      return link.port;
    case 'close':
      await link.close();
      return link.port;
  }
}

function handle(message: ToLinkProcess): void {
  switch (message.type) {
    case 'open': {
      const link = new LinkProxy(message.name, { port: targetOf(message.id) }, Math.random, sockets.account(message.lab));
      links.set(message.id, link);
      link.setDelay(message.delayMs, message.jitterMs);
      if (message.port !== 0) opening = opening.then(() => link.reopen(message.port, message.cut).catch(() => undefined));
      return;
    }
    case 'call': {
      const { req, id } = message;
      void opening
        .then(() => {
          const link = links.get(id);
          if (!link) throw new LabOperationError('not-found', `link ${id} is not open`);
          return call(link, message.call).finally(() => {
            if (message.call.op !== 'close') return;
            links.delete(id);
            known.delete(id);
          });
        })
        .then(
          (port) => send({ type: 'reply', req, ok: true, port }),
          (error: unknown) => {
            const known = error instanceof LabOperationError;
            send({ type: 'reply', req, ok: false, code: known ? error.code : 'internal', message: error instanceof Error ? error.message : String(error) });
          },
        );
      return;
    }
    case 'delay':
      links.get(message.id)?.setDelay(message.delayMs, message.jitterMs);
      return;
    case 'reset':
      links.get(message.id)?.resetConnections();
      return;
    case 'target-is':
      known.set(message.id, message.port);
      return;
    case 'budget':
      sockets.configure(message);
      return;
  }
}

process.on('message', (message: ToLinkProcess) => handle(message));
send({ type: 'ready' });
// The server is gone (exited, killed, crashed): so are we, and with us every link's port.
process.on('disconnect', () => process.exit(0));
// Ctrl-C or a supervisor's SIGTERM reaches the whole process group: the server closes its labs, and their
// links, then exits, which ends us above. Only if it never does, we go on our own.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => setTimeout(() => process.exit(0), 10_000).unref());
}
