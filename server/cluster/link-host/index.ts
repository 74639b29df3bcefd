/**
 * Where a lab's links come from: the server's one link process (see
 * link-host.ts), or — with LOCKLAB_LINK_PROCESS=0, for a machine where a child
 * process cannot be started — proxies on the server's own loop.
 */
import { LinkProxy, type Link, type LinkTarget } from '../link-proxy';
import { LinkHost } from './link-host';

let host: LinkHost | null = null;

/** The server's link process (one per server process, shared by its labs). */
export function linkHost(): LinkHost {
  host ??= new LinkHost();
  return host;
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

export function openLink(name: string, target: LinkTarget): Link {
  if (!inLinkProcess()) return new LinkProxy(name, target);
  return linkHost().open(name, target);
}
