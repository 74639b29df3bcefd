// Wrong: SET … NX EX with ttlMs, passing milliseconds where EX expects seconds.
// TTL_MS = 1000 becomes a 1000-second (almost 17-minute) lock: if the holder
// crashes inside the critical section, the others wait 17 minutes instead of
// 1 s (holder-crash-ttl: nobody takes the lock again within the run).

// One command checks and takes the lock, so no other client can slip in
// between; EX makes the key expire if we die holding it.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'EX', ttlMs, 'NX');
  return ok === 'OK' ? token : null;
}
