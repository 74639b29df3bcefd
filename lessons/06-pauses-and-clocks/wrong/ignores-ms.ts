// Wrong: checks only that the lock has not expired yet; ignores how long the send (ms) takes.
// After a pause in the render that leaves, say, 300 ms of validity, the check
// passes, the 800 ms send starts, and the lock expires mid-send: another worker
// takes it and both send the invoice.

// Check the lock's validity on our own clock just before the side effect.
// This shrinks the danger to the moment between this check and the write;
// it does not remove it (lesson 7 does), and it trusts the nodes' clocks.
function safeToCommit(lock: { expiration: number }, ms: number): boolean {
  return lock.expiration > Date.now();
}
