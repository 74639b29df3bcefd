// Wrong: extend() is a plain PEXPIRE, with no check that the key still holds our token.
// Once our lock has expired (renewals timed out, or we were paused) and another
// worker took it, our watchdog extends the other worker's lock and gets 1 back,
// so it never notices that the lock is no longer ours.

// Reset the lock's TTL: the watchdog calls this every TTL/3.
async function extend(key: string, token: string, ttlMs: number): Promise<boolean> {
  const extended = await redis.pexpire(key, ttlMs);
  return extended === 1;
}
