// Wrong: keeps its first answer for each lock and gives it again when asked about the same lock later.
// The lock's expiration does not change, so the answer looks as if it could not either; but the time does: a
// worker asked once before a pause gets the same "yes" after it, when the lock has run out.

const answers = new WeakMap<object, boolean>();

function safeToCommit(lock: { expiration: number }, ms: number): boolean {
  const known = answers.get(lock);
  if (known !== undefined) return known;
  const safe = lock.expiration - Date.now() > ms + 100;
  answers.set(lock, safe);
  return safe;
}
