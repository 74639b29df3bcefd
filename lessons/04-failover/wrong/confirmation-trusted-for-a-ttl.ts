// Wrong: trusts a WAIT confirmation for as long as a lock lives: within TTL_MS of the last one, acquire() skips WAIT.
// The reasoning is "the replica caught up a moment ago, so it has this lock too"; but WAIT confirms the writes
// sent before it, and replication can stall the moment after: a lock taken in that window is on the master only,
// and a failover forgets it while acquire() has returned it. WAIT again after every SET.

let confirmedAt = -Infinity;

async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  return onMaster(async (redis, replicas) => {
    const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
    if (ok !== 'OK') return null;
    if (replicas === 0 || Date.now() - confirmedAt < TTL_MS) return token;
    const acked = Number(await redis.call('WAIT', replicas, WAIT_MS));
    if (acked >= replicas) {
      confirmedAt = Date.now();
      return token;
    }
    lab.log(`only ${acked} of ${replicas} replica(s) confirmed the lock: giving it back`);
    await redis.eval(RELEASE, 1, key, token);
    return null;
  });
}
