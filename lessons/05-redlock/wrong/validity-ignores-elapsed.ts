// Wrong: validityMs = TTL_MS - drift only; the time spent collecting the votes is not subtracted.
// If the votes take long (slow or timed-out nodes, or a pause in the middle of
// acquire()), the first keys set may already have expired when the quorum is
// counted: the lock is accepted, with too long a validity, though others can take it.

async function acquire(): Promise<{ token: string; validityMs: number } | null> {
  const token = randomBytes(20).toString('hex');
  const votes = (await Promise.all(NODES.map((redis) => setOn(redis, token)))).filter(Boolean).length;
  const validityMs = TTL_MS - (Math.floor(TTL_MS * DRIFT_FACTOR) + 2);
  if (votes >= quorum(NODES.length) && validityMs > 0) return { token, validityMs };
  await releaseEverywhere(token); // undo a partial lock before trying again
  return null;
}
