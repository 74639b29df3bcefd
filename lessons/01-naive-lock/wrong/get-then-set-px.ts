// Wrong: GET to see whether the lock is free, then SET … PX without NX (check-then-set).
// The check and the take are two commands: two workers can both GET null, then
// both SET, and both believe they hold the lock; the TTL does not help, the
// second SET simply overwrites the first holder's token.

// First check that nobody holds the lock, then take it; PX makes the key
// expire if we die holding it.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const holder = await redis.get(key);
  if (holder !== null) return null;
  await redis.set(key, token, 'PX', ttlMs);
  return token;
}
