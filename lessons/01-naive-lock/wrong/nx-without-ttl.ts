// Wrong: SET … NX with no TTL at all (ttlMs is ignored).
// The take is atomic, but the key never expires: if the holder crashes before
// its DEL, the lock stays forever and no other worker ever sends its invoices
// (holder-crash-ttl: Client 1 dies inside the critical section).

// One command checks and takes the lock, so no other client can slip in
// between.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'NX');
  return ok === 'OK' ? token : null;
}
