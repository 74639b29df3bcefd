// Wrong: remembers the locks this client holds and answers from memory: a key it took before is "still ours".
// The memory is cleared only by release(): a lock that expired under its holder (a crash, a long pause) and was
// taken by another client is still "ours" to this client, and both believe they hold it.

// The locks this client holds: asking Redis again for one we already hold
// would only cost a round trip.
const held = new Map<string, string>();

// One command checks and takes the lock, so no other client can slip in
// between; PX makes the key expire if we die holding it.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const mine = held.get(key);
  if (mine !== undefined) return mine;
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
  if (ok !== 'OK') return null;
  held.set(key, token);
  return token;
}

// Still a plain DEL: lesson 2 shows what is wrong with it.
async function release(key: string): Promise<void> {
  held.delete(key);
  await redis.del(key);
}
