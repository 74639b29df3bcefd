/**
 * Labs kept busy the way a class loads a server: each its own browser, each
 * running five clients that race for a Redlock over the five nodes for the
 * run's whole life (a run that ends is started again). Used by the benchmarks
 * that measure something else while other labs work (capacity, grading).
 */
import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { tabSoon } from '@/tests/helpers/browser-identity';

type Tab = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Five clients racing for a Redlock over the five nodes, as fast as they can, for the run's whole life; a client
 * that missed the lock waits `backoffMs` before it tries again.
 */
export function busyRedlock(backoffMs: number): string {
  return `
import Redis from 'ioredis';
import Redlock from 'redlock';
import lab from 'lab';
const clients = [1, 2, 3, 4, 5].map((n) => new Redis({ host: \`redis-\${n}.internal\` }));
const redlock = new Redlock(clients, { retryCount: 0 });
for (;;) {
  try {
    const lock = await redlock.acquire(['lock:busy'], 1000);
    await lab.job('busy').run(1);
    await lock.release();
  } catch {
    await lab.sleep(${backoffMs});
  }
}
`;
}

/** The busy program capacity and grading use. */
export const BUSY_REDLOCK = busyRedlock(1);

/** A tab of a browser of its own (its identity bought with work, as a page does), connected. */
export async function connectedTab(url: string, cookie?: string): Promise<Tab> {
  const socket: Tab = tabSoon(url, cookie ? { cookie } : {});
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** What a busy loop did: runs it started, and the ones the server refused (with why), so a quiet "busy" lab shows. */
export interface BusyCount {
  runs: number;
  refused: string[];
}

/** Keeps a busy run going on the tab's lab until `stopped()` says so (a run that ends is started again). */
export function keepBusy(socket: Tab, stopped: () => boolean, code: string = BUSY_REDLOCK): Promise<BusyCount> {
  const count: BusyCount = { runs: 0, refused: [] };
  return new Promise<BusyCount>((resolve) => {
    const start = () => {
      if (stopped()) return;
      count.runs++;
      socket
        .emitWithAck('run:start', { code, clients: 5 })
        .then((started) => {
          if (!started.ok) count.refused.push(started.error.message);
        })
        .catch((error: unknown) => count.refused.push(error instanceof Error ? error.message : String(error)));
    };
    socket.on('run:ended', start);
    start();
    const poll = setInterval(() => {
      if (!stopped()) return;
      clearInterval(poll);
      socket.off('run:ended', start);
      socket
        .emitWithAck('run:stop', {})
        .catch((error: unknown) => count.refused.push(`stop: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => resolve(count));
    }, 100);
  });
}

export interface BusyLabs {
  /** History events the busy labs pushed to their tabs so far: evidence that they were busy. */
  events(): number;
  /** Stops every loop and closes the tabs; what the loops did. */
  stop(): Promise<BusyCount>;
}

/** `count` labs of the default topology, each its own browser, each running BUSY_REDLOCK until stopped. */
export async function startBusyLabs(url: string, count: number): Promise<BusyLabs> {
  const tabs = await Promise.all(Array.from({ length: count }, () => connectedTab(url)));
  let events = 0;
  let stopped = false;
  try {
    for (const t of tabs) {
      const joined = await t.emitWithAck('lab:join', {});
      if (!joined.ok) throw new Error(`a busy lab was refused: ${joined.error.message}`);
      t.on('history:append', (batch) => (events += batch.events.length));
    }
  } catch (error) {
    for (const t of tabs) t.close();
    throw error;
  }
  const loops = tabs.map((t) => keepBusy(t, () => stopped));
  return {
    events: () => events,
    stop: async () => {
      stopped = true;
      const counts = await Promise.all(loops);
      for (const t of tabs) t.close();
      return { runs: counts.reduce((a, c) => a + c.runs, 0), refused: counts.flatMap((c) => c.refused) };
    },
  };
}
