// Wrong: calls WAIT but ignores its reply: returns the token however many replicas acknowledged.
// WAIT also returns when its timeout passes with no replica confirming (reply 0):
// the lock is then on the master only, a failover in that window forgets it, and a
// second worker takes the lock while the first still sends (failover-fixed).

// The lock counts only once the replicas have it: WAIT for that many
// replicas to acknowledge our writes.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  return onMaster(async (redis, replicas) => {
    const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
    if (ok !== 'OK') return null;
    if (replicas === 0) return token;
    await redis.call('WAIT', replicas, WAIT_MS);
    return token;
  });
}
