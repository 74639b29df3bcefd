/**
 * Ports for link proxies.
 *
 * A link cut with `refuse` closes its listener, so connecting is refused by
 * the kernel, and must listen on the same port again when it heals: the
 * learner's clients keep reconnecting to the port they were given. While the
 * listener is closed, nothing else may take that port. So link ports come
 * from below the kernel's ephemeral range — the kernel never hands those out
 * for a port-0 bind (`freePort`, which places the redis-servers) or for an
 * outgoing connection — and a port stays held in this process from the
 * link's first listen until the link is closed, cut or not.
 */
import fs from 'node:fs';
import net from 'node:net';
import { FORBIDDEN_PORTS } from './ports';

export interface PortRange {
  low: number;
  high: number;
}

const LOWEST = 20_000;
/** Below this many ports the range below the ephemeral one is too small to pick from at random. */
const MIN_SPAN = 2_000;
const FALLBACK: PortRange = { low: LOWEST, high: 32_767 };

/** The kernel's ephemeral range on Linux (`/proc/sys/net/ipv4/ip_local_port_range`), or null elsewhere. */
export function ephemeralRange(read: () => string = () => fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')): PortRange | null {
  try {
    const [low, high] = read().trim().split(/\s+/).map(Number);
    return Number.isInteger(low) && Number.isInteger(high) ? { low: low!, high: high! } : null;
  } catch {
    return null;
  }
}

/** Where link ports are picked: from 20000 up to just below the ephemeral range. */
export function linkPortRange(ephemeral: PortRange | null = ephemeralRange()): PortRange {
  if (!ephemeral) return FALLBACK; // macOS and Windows start their ephemeral ranges at 49152
  const high = ephemeral.low - 1;
  // A machine whose ephemeral range starts low leaves no room below it; take the fixed range and rely on the held set.
  return high - LOWEST + 1 >= MIN_SPAN ? { low: LOWEST, high } : FALLBACK;
}

const held = new Set<number>();

/** A port in `range` that no link of this process holds (random, so two lab servers on one machine rarely meet). */
export function pickLinkPort(range: PortRange, taken: ReadonlySet<number> = held, random: () => number = Math.random): number {
  const span = range.high - range.low + 1;
  const start = Math.floor(random() * span);
  for (let i = 0; i < span; i++) {
    const port = range.low + ((start + i) % span);
    if (!taken.has(port) && !FORBIDDEN_PORTS.has(port)) return port;
  }
  throw new Error(`every port from ${range.low} to ${range.high} is held by a link`);
}

function listenOn(server: net.Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

const ATTEMPTS = 50;

/**
 * Listens `server` on a fresh link port and holds it. A port some other
 * program already uses answers EADDRINUSE; the next one is tried.
 */
export async function listenOnNewLinkPort(server: net.Server, range: PortRange = linkPortRange()): Promise<number> {
  let lastError: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = pickLinkPort(range);
    held.add(port); // held before the listen, so two links starting together never pick the same one
    try {
      await listenOn(server, port);
      return port;
    } catch (error) {
      held.delete(port);
      lastError = error;
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' && (error as NodeJS.ErrnoException).code !== 'EACCES') throw error;
    }
  }
  throw new Error(`no free link port after ${ATTEMPTS} tries: ${(lastError as Error).message}`);
}

/** Listens `server` again on a port this process already holds (a link healing from `refuse`). */
export async function listenAgainOnLinkPort(server: net.Server, port: number): Promise<void> {
  await listenOn(server, port);
}

/** Holds a port a link already had (in a link process that died and was replaced). */
export function holdLinkPort(port: number): void {
  held.add(port);
}

/** The link is closed for good: its port may be picked again. */
export function releaseLinkPort(port: number): void {
  held.delete(port);
}

/** For tests: whether this process holds `port` for a link. */
export function isLinkPortHeld(port: number): boolean {
  return held.has(port);
}
