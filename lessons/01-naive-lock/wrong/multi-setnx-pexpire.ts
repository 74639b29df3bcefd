// Wrong: takes the lock with MULTI / SETNX / PEXPIRE / EXEC: atomic, but the PEXPIRE runs whether or not the SETNX won.
// A client that fails to get the lock sets the TTL of the holder's lock back to ttlMs on every try: a lock whose
// holder crashed is kept alive by the very clients waiting for it, and never frees while they keep asking.

// A transaction runs SETNX and PEXPIRE together, so no crash can fall between
// them and the key always gets its TTL.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const replies = await redis.multi().setnx(key, token).pexpire(key, ttlMs).exec();
  return replies?.[0]?.[1] === 1 ? token : null;
}
