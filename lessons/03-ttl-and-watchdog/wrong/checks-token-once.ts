// Wrong: checks the token with the script on a lock's first renewal only; later renewals of the same token are a plain PEXPIRE.
// The check is meant to be needed once: "it was ours a moment ago". But the lock can pass to another worker between two
// renewals (a paused holder, a slow link): the next PEXPIRE then extends the other worker's lock and answers 1, and
// the watchdog goes on as if the lock were still ours. Every renewal checks the token, in the same script.

const checkedTokens = new Set<string>();

async function extend(key: string, token: string, ttlMs: number): Promise<boolean> {
  if (checkedTokens.has(token)) return (await redis.pexpire(key, ttlMs)) === 1;
  const extended = await redis.eval(EXTEND, 1, key, token, ttlMs);
  if (extended === 1) checkedTokens.add(token);
  return extended === 1;
}
