// Wrong: subtracts the 100 ms margin instead of adding it (ms - 100).
// It accepts a lock with only 701 ms left for an 800 ms send: the lock can
// expire about 100 ms before the send ends, and a worker that takes it then
// sends too (a render pause leaving 701–900 ms of validity shows it).

// Check the lock's validity on our own clock just before the side effect.
// This shrinks the danger to the moment between this check and the write;
// it does not remove it (lesson 7 does), and it trusts the nodes' clocks.
function safeToCommit(lock: { expiration: number }, ms: number): boolean {
  return lock.expiration - Date.now() > ms - 100;
}
