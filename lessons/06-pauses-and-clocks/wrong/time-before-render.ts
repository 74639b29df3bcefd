// Wrong: compares against the time the lock was granted, not the time of the check.
// The check runs after the 500 ms render, but grantedAt was read before it: a
// pause during the render is invisible, so a lock that already expired still
// looks valid and the stale worker sends beside the new holder (gc-pause-checked).

// Check the lock's validity on our own clock: was there room for the send,
// with 100 ms to spare, when the lock was granted? It does not remove the
// danger (lesson 7 does), and it trusts the nodes' clocks.
function safeToCommit(lock: { expiration: number }, ms: number): boolean {
  return lock.expiration - grantedAt > ms + 100;
}

const lock = await redlock.acquire(['lock:invoice-2024-06'], TTL_MS);
const grantedAt = Date.now();
