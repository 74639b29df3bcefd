// Wrong: a failed acquire() keeps the votes it did collect instead of releasing them.
// Competing clients each keep their minority of keys for the whole 3 s TTL: with
// three clients splitting the five nodes 2/2/1, nobody reaches 3 votes and
// nobody frees its keys, so every retry fails until the TTLs run out.

async function acquire(): Promise<{ token: string; validityMs: number } | null> {
  const token = randomBytes(20).toString('hex');
  const start = Date.now();
  const votes = (await Promise.all(NODES.map((redis) => setOn(redis, token)))).filter(Boolean).length;
  const validityMs = TTL_MS - (Date.now() - start) - (Math.floor(TTL_MS * DRIFT_FACTOR) + 2);
  if (votes >= quorum(NODES.length) && validityMs > 0) return { token, validityMs };
  return null;
}
