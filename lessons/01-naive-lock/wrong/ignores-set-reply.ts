// Wrong: ignores SET NX's reply and returns the token whether or not the SET took the lock.
// SET … NX answers null when someone else holds the key, but acquire() still
// returns a token, so every worker that asks "gets" the lock: two workers
// calling acquire() at the same time both enter the critical section.

// One command checks and takes the lock, so no other client can slip in
// between; PX makes the key expire if we die holding it.
async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  await redis.set(key, token, 'PX', ttlMs, 'NX');
  return token;
}
