// Wrong: takes the lock with SETNX, then sets its TTL with a separate PEXPIRE.
// The two commands are not atomic: a holder that crashes (or loses its connection)
// between SETNX and PEXPIRE leaves a key with no TTL, so the lock never frees and
// every other worker waits forever (a crash right after the SETNX reply shows it).

// SETNX checks and takes the lock in one command, so no other client can
// slip in between; PEXPIRE then makes the key expire if we die holding it.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.setnx(key, token);
  if (ok !== 1) return null;
  await redis.pexpire(key, ttlMs);
  return token;
}
