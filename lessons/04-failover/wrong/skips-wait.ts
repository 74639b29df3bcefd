// Wrong: skips WAIT: the lock counts as soon as the master's SET … NX PX answers OK.
// Replication is asynchronous: if the master dies before its replica has the
// key, the promoted replica has no lock and a second worker takes it while the
// first is still sending (the failover interleaving).

// The lock counts as soon as the master (or the promoted replica) accepted it.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  return onMaster(async (redis, replicas) => {
    const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
    return ok === 'OK' ? token : null;
  });
}
