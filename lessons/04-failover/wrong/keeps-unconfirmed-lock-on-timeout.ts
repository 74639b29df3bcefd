// Wrong: on a WAIT timeout it returns null but never gives the unconfirmed lock back.
// The key stays on the master for its whole 5 s TTL: this worker's own retries
// (SET NX) fail against it, and so do everyone else's, so a replication lag
// spike stalls every worker for a full TTL (lag-spike shows it).

// The lock counts only once the replicas have it: WAIT blocks until that many
// replicas acknowledged our writes, or the timeout passes. Without their
// acknowledgement a failover could forget the lock, so do not count it.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  return onMaster(async (redis, replicas) => {
    const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
    if (ok !== 'OK') return null;
    if (replicas === 0) return token;
    const acked = Number(await redis.call('WAIT', replicas, WAIT_MS));
    if (acked >= replicas) return token;
    lab.log(`only ${acked} of ${replicas} replica(s) confirmed the lock: not counting it`);
    return null;
  });
}
