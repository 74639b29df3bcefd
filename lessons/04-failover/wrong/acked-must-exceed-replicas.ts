// Wrong: requires acked > replicas instead of acked >= replicas (off by one).
// Node 1 has exactly one replica, so WAIT never answers more than 1: every lock
// taken on the master is given back, and no worker ever sends while the master
// is up (a liveness failure: the job runs only after a failover, if at all).

// The lock counts only once the replicas have it: WAIT blocks until that many
// replicas acknowledged our writes, or the timeout passes. Without their
// acknowledgement a failover could forget the lock, so give it back.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  return onMaster(async (redis, replicas) => {
    const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
    if (ok !== 'OK') return null;
    if (replicas === 0) return token;
    const acked = Number(await redis.call('WAIT', replicas, WAIT_MS));
    if (acked > replicas) return token;
    lab.log(`only ${acked} of ${replicas} replica(s) confirmed the lock: giving it back`);
    await redis.eval(RELEASE, 1, key, token);
    return null;
  });
}
