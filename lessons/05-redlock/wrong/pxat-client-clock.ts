// Wrong: sends each node the lock's expiry as a moment of the client's clock (PXAT Date.now() + TTL).
// Clocks of different machines disagree: on a client whose clock is fast, every node keeps the lock longer than
// its TTL (a crashed holder blocks everyone); on a slow one the key is gone before the client counts its votes.

async function setOn(redis: Redis, token: string): Promise<boolean> {
  try {
    // One deadline for every node, so all the votes expire at the same moment.
    return (await redis.set(KEY, token, 'PXAT', Date.now() + TTL_MS, 'NX')) === 'OK';
  } catch {
    return false; // a node we cannot reach votes no
  }
}
