// Wrong: leaves no margin: sends if the lock is valid until exactly the end of the send (> ms).
// The contract asks for 100 ms to spare: a lock with 801 ms left passes for an
// 800 ms send, and a few ms of drift between our clock and the nodes', or of
// scheduling, let the lock expire before the write lands.

// Check the lock's validity on our own clock just before the side effect.
// This shrinks the danger to the moment between this check and the write;
// it does not remove it (lesson 7 does), and it trusts the nodes' clocks.
function safeToCommit(lock: { expiration: number }, ms: number): boolean {
  return lock.expiration - Date.now() > ms;
}
