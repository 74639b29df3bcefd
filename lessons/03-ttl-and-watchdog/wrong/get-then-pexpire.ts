// Wrong: GET and compare in the client, then PEXPIRE: two commands, not one script.
// The lock can expire and pass to another worker between our GET and our
// PEXPIRE: we then extend the other worker's lock and believe it is still ours.

// Compare our token, then reset the TTL.
async function extend(key: string, token: string, ttlMs: number): Promise<boolean> {
  if ((await redis.get(key)) !== token) return false;
  const extended = await redis.pexpire(key, ttlMs);
  return extended === 1;
}
