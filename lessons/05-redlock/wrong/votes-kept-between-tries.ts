// Wrong: counts the votes in a variable kept between attempts, reset only when an attempt succeeds.
// A failed attempt undoes its keys but leaves its count: the retry adds its own votes to the last try's, so two
// failed attempts of two votes each make "four of five", and acquire() returns a lock held on a minority while
// another client can collect a real majority. Each attempt counts only its own votes.

let votes = 0;

async function acquire(): Promise<{ token: string; validityMs: number } | null> {
  const token = randomBytes(20).toString('hex');
  const start = Date.now();
  votes += (await Promise.all(NODES.map((redis) => setOn(redis, token)))).filter(Boolean).length;
  const validityMs = TTL_MS - (Date.now() - start) - (Math.floor(TTL_MS * DRIFT_FACTOR) + 2);
  if (votes >= quorum(NODES.length) && validityMs > 0) {
    votes = 0;
    return { token, validityMs };
  }
  await releaseEverywhere(token); // undo a partial lock before trying again
  return null;
}
