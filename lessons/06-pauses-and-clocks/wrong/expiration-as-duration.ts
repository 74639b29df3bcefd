// Wrong: treats lock.expiration as the time left, when it is a clock time (like Date.now()).
// lock.expiration is an absolute timestamp, always far larger than ms + 100,
// so the check always passes: a worker paused past its lock's validity during
// the render still sends (gc-pause-checked shows it).

// Check the lock's remaining validity just before the side effect.
// This shrinks the danger to the moment between this check and the write;
// it does not remove it (lesson 7 does), and it trusts the nodes' clocks.
function safeToCommit(lock: { expiration: number }, ms: number): boolean {
  return lock.expiration > ms + 100;
}
