// Wrong: caches the replicas' confirmation: once WAIT confirmed one lock, every later acquire() counts without WAIT.
// WAIT confirms the writes sent before it, not the replica's health for good: the
// next lock may be taken while replication is held back, and a failover then
// forgets it while acquire() has already returned it (the second acquire).

// The lock counts only once the replicas have it: WAIT blocks until that many
// replicas acknowledged our writes, or the timeout passes. Without their
// acknowledgement a failover could forget the lock, so give it back.
// The replicas confirmed a lock once: they are in sync, so later locks need no WAIT.
let confirmed = false;

async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  return onMaster(async (redis, replicas) => {
    const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
    if (ok !== 'OK') return null;
    if (replicas === 0 || confirmed) return token;
    const acked = Number(await redis.call('WAIT', replicas, WAIT_MS));
    if (acked >= replicas) {
      confirmed = true;
      return token;
    }
    lab.log(`only ${acked} of ${replicas} replica(s) confirmed the lock: giving it back`);
    await redis.eval(RELEASE, 1, key, token);
    return null;
  });
}
