/**
 * The worker's side of the server's descriptor reserve (server/ops/descriptors.ts): the main thread
 * counts the process's open descriptors a few times a second into shared memory; a connection opened
 * here is added to that count at once, and one that would bring it to the ceiling (the limit less the
 * web server's reserve) is refused, so a new visitor's websocket still finds a descriptor.
 */

/** Slots of the shared memory: the main thread's count, connections opened since, and the most learners may bring it to. */
export const DESCRIPTOR_SLOT = { open: 0, openedSince: 1, ceiling: 2 } as const;

export interface DescriptorRoom {
  /** One more socket for a learner connection (false: only the web server's reserve is left). */
  take(): boolean;
}

/** No reserve to keep (a pool without a server: tests, benchmarks). */
export const ANY_ROOM: DescriptorRoom = { take: () => true };

export function sharedDescriptorRoom(shared: SharedArrayBuffer): DescriptorRoom {
  const slots = new Int32Array(shared);
  return {
    take() {
      const opened = Atomics.add(slots, DESCRIPTOR_SLOT.openedSince, 1) + 1;
      if (Atomics.load(slots, DESCRIPTOR_SLOT.open) + opened <= Atomics.load(slots, DESCRIPTOR_SLOT.ceiling)) return true;
      Atomics.sub(slots, DESCRIPTOR_SLOT.openedSince, 1);
      return false;
    },
  };
}
