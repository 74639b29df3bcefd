// Wrong: sets the lock's expiry as an absolute time from the client's own clock (PXAT Date.now() + ttlMs).

async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PXAT', Date.now() + ttlMs, 'NX');
  return ok === 'OK' ? token : null;
}
