// Wrong: on a WAIT timeout it gives the lock back but still returns the token.
// The worker then runs its job without holding any lock: the key is deleted, so
// a second worker's SET NX succeeds at once and both send at the same time
// (a replication delay longer than WAIT_MS, as in lag-spike, shows it).

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
    if (acked >= replicas) return token;
    lab.log(`only ${acked} of ${replicas} replica(s) confirmed the lock: giving it back`);
    await redis.eval(RELEASE, 1, key, token);
    return token;
  });
}
