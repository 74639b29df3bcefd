/**
 * The coordination Redis (LOCKLAB_COORDINATION_URL) shared by several lab
 * servers: socket.io's Redis adapter broadcasts each room's events to every
 * server and carries server-to-server requests, and a command connection
 * keeps the classroom records. It is never one of a lab's nodes.
 */
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { Server } from 'socket.io';

export interface Coordination {
  /** Commands (classroom records, the shared instructor token) and the adapter's publishes. */
  redis: Redis;
  close(): Promise<void>;
}

/** Long enough for an owner to start a demo (a fresh lab restore) before a forwarded action times out. */
export const FORWARD_TIMEOUT_MS = 20_000;

function connect(url: string, name: string): Redis {
  const redis = new Redis(url, { lazyConnect: true, connectionName: `locklab-${name}`, maxRetriesPerRequest: 3 });
  // ioredis reconnects by itself; without a listener an outage would be an unhandled 'error' event.
  redis.on('error', (error: Error) => console.error(`[locklab] coordination Redis (${name}): ${error.message}`));
  return redis;
}

/** Connects (failing the server's start if the coordination Redis cannot be reached) and installs the adapter on `io`. */
export async function connectCoordination(url: string, io: Server): Promise<Coordination> {
  const pub = connect(url, 'pub');
  const sub = connect(url, 'sub');
  try {
    await Promise.all([pub.connect(), sub.connect()]);
  } catch (error) {
    pub.disconnect();
    sub.disconnect();
    throw new Error(`Could not reach the coordination Redis at LOCKLAB_COORDINATION_URL: ${(error as Error).message}`);
  }
  io.adapter(createAdapter(pub, sub, { requestsTimeout: FORWARD_TIMEOUT_MS, publishOnSpecificResponseChannel: true }));
  return {
    redis: pub,
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
