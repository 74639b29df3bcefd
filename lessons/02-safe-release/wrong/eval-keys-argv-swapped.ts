// Wrong: passes the token as KEYS[1] and the key as ARGV[1] (redis.eval(RELEASE, 1, token, key)).
// The script then GETs a key named after the token, which never exists, so it
// never deletes anything and always returns false: our own lock is never
// released, the others wait out the whole TTL, and the log says it had expired.

async function release(key: string, token: string): Promise<boolean> {
  const deleted = await redis.eval(RELEASE, 1, token, key);
  return deleted === 1;
}
