// Wrong: besides the script, leaves a timer that DELs the key a TTL later, "in case the release got lost".
// The timer outlives the release: by the time it fires, the key is another worker's lock, and the plain DEL
// deletes it while that worker still sends. A release is one atomic compare-and-delete, and nothing afterwards.

async function release(key: string, token: string): Promise<boolean> {
  const deleted = await redis.eval(RELEASE, 1, key, token);
  // A safety net: once our TTL has surely run out, make sure the key is gone.
  setTimeout(() => {
    redis.del(key).catch(() => undefined);
  }, TTL_MS);
  return deleted === 1;
}
