// Wrong: guards against releasing twice by remembering the keys it released, not the tokens.
// The memory outlives the lock: after acquire → release → acquire on the same key, the second release() finds the
// key "already released", deletes nothing and says false, so the new lock stays until its TTL runs out and every
// other worker waits for it. A lock is its token: a new lock on the same key is a new thing to release.

const releasedKeys = new Set<string>();

async function release(key: string, token: string): Promise<boolean> {
  if (releasedKeys.has(key)) return false;
  const deleted = await redis.eval(RELEASE, 1, key, token);
  if (deleted === 1) releasedKeys.add(key);
  return deleted === 1;
}
