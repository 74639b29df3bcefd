// Wrong: the watchdog renews at 0.9 × TTL, just before the lock would expire.
// A renewal is a round trip: on a slow link (or a busy machine) it reaches Redis after the
// TTL has run out, another worker takes the lock, and two re-index at once. Renew every TTL/3.

// Renews the lock just before it would expire: fewer commands than every TTL/3. A renewal that errors (a timeout) may still
// succeed next time; a renewal that finds another token means the lock is gone.
function startWatchdog(key: string, token: string, ttlMs: number): () => void {
  const timer = setInterval(async () => {
    try {
      if (await extend(key, token, ttlMs)) return;
      clearInterval(timer);
      lab.log('lost the lock: it now belongs to someone else');
    } catch (error) {
      lab.log(`renewal failed (${(error as Error).message}); trying again in ${Math.floor(ttlMs / 3)} ms`);
    }
  }, Math.floor(ttlMs * 0.9));
  return () => clearInterval(timer);
}
