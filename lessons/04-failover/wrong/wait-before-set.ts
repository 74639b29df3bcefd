// Wrong: runs WAIT before the SET, so it confirms earlier writes, never the lock itself.
// The SET … NX PX that takes the lock is replicated asynchronously after WAIT
// returned: a failover right after the SET forgets the lock and a second worker
// takes it while the first still sends (the same window as with no WAIT at all).

// Take the lock only when the replicas are in sync: WAIT blocks until that many
// replicas acknowledged our writes, or the timeout passes. If they are behind,
// a failover could forget the lock, so do not take it.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  return onMaster(async (redis, replicas) => {
    if (replicas > 0) {
      const acked = Number(await redis.call('WAIT', replicas, WAIT_MS));
      if (acked < replicas) {
        lab.log(`only ${acked} of ${replicas} replica(s) in sync: not locking yet`);
        return null;
      }
    }
    const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
    return ok === 'OK' ? token : null;
  });
}
