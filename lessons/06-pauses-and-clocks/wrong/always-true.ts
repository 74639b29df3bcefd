// Wrong: safeToCommit() always returns true.
// No check at all: a worker paused beyond its lock's validity during the render
// wakes up and sends, while the worker that took the expired lock sends too
// (the starter's gc-pause failure, under gc-pause-checked).

// Redlock granted us the lock, so it is ours until we release it.
function safeToCommit(lock: { expiration: number }, ms: number): boolean {
  return true;
}
