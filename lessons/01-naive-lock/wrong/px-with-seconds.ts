// Wrong: converts ttlMs to seconds but still passes it to PX (ttlMs / 1000 as milliseconds).
// TTL_MS = 1000 becomes a 1 ms lock: it expires before the holder even starts
// its 300 ms job, so the next worker's SET NX succeeds while the first is still
// sending: two workers inside the critical section at once.

// One command checks and takes the lock, so no other client can slip in
// between; PX makes the key expire if we die holding it.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PX', ttlMs / 1000, 'NX');
  return ok === 'OK' ? token : null;
}
