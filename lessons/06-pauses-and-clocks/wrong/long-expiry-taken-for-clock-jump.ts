// Wrong: takes a lock that seems to have expired more than a whole TTL ago for a clock that jumped, and trusts it.
// No render takes that long, so the answer reasons that the clock must be wrong; but a holder paused past the
// whole TTL (a long GC pause, a stopped VM) sees exactly that, and its lock has long passed to another worker.
// The longer the pause, the surer the lock is gone: the time left is expiration − now, whatever its size.

function safeToCommit(lock: { expiration: number }, ms: number): boolean {
  const left = lock.expiration - Date.now();
  // More than a whole TTL past its end: our clock must have jumped, so trust the lock.
  if (left < -TTL_MS) return true;
  return left > ms + 100;
}
