/**
 * Where a lab's links come from: the server's one link process (see
 * link-host.ts), or — with LOCKLAB_LINK_PROCESS=0, for a machine where a child
 * process cannot be started — proxies on the server's own loop.
 */
import { LinkProxy, type Link, type LinkTarget } from '../link-proxy';
import { LabSockets, type SocketBudget, type SocketsRefused } from './lab-sockets';
import { LinkHost } from './link-host';

let host: LinkHost | null = null;
/** Who hears that a lab's connections were refused past its share of descriptors, by lab. */
const refusedListeners = new Map<string, (refused: SocketsRefused) => void>();
const tellRefused = (refused: SocketsRefused): void => refusedListeners.get(refused.lab)?.(refused);
/** With LOCKLAB_LINK_PROCESS=0 the links' sockets are the server's own: the same shares, of its descriptors. */
let onLoop: LabSockets | null = null;
let budget: SocketBudget = { labs: 1, perLab: null };

/** The server's link process (one per server process, shared by its labs). */
export function linkHost(): LinkHost {
  host ??= new LinkHost(tellRefused);
  return host;
}

/** How labs share the links' descriptors: the server's lab cap, or an operator's figure per lab (LOCKLAB_LINK_SOCKETS_PER_LAB). */
export function configureLinkSockets(next: SocketBudget): void {
  budget = next;
  if (inLinkProcess()) linkHost().configure(next);
  else onLoop?.configure(next);
}

/** `listener` hears when lab `lab`'s connections are refused past its share; the returned function stops that. */
export function onLinkSocketsRefused(lab: string, listener: (refused: SocketsRefused) => void): () => void {
  refusedListeners.set(lab, listener);
  return () => {
    if (refusedListeners.get(lab) === listener) refusedListeners.delete(lab);
  };
}

/** The link process's pid, if it has been started (its CPU waits count in a run's, see runs/cpu-wait.ts). */
export function linkProcessPid(): number | null {
  return host && host.runningPid > 0 ? host.runningPid : null;
}

/** Whether links live in the link process (the default) or, with LOCKLAB_LINK_PROCESS=0, on the server's loop. */
const inLinkProcess = (): boolean => process.env.LOCKLAB_LINK_PROCESS !== '0';

/**
 * Starts the link process before the server takes its first visitor; rejects with a
 * `LinkProcessStartError` (one sentence) when it cannot run here.
 */
export async function startLinkProcess(): Promise<void> {
  if (inLinkProcess()) await linkHost().start();
}

export function openLink(name: string, target: LinkTarget, lab: string): Link {
  if (inLinkProcess()) return linkHost().open(name, target, lab);
  onLoop ??= new LabSockets(tellRefused, undefined, budget);
  return new LinkProxy(name, target, Math.random, onLoop.account(lab));
}
