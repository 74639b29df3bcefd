// Wrong: reads "now" on a clock of its own (Date.now() once at the start, plus performance.now() since), not on the clock the lock's expiration was read on.
// It is meant to be immune to clock steps; but Redlock wrote lock.expiration with Date.now(): once the client's
// clock steps (NTP, a resumed VM), the two clocks disagree by the step, and a lock that expired seconds ago looks
// valid. Compare the expiration with the clock it was read on.

const clockAtStart = Date.now() - performance.now();

function safeToCommit(lock: { expiration: number }, ms: number): boolean {
  const now = clockAtStart + performance.now();
  return lock.expiration - now > ms + 100;
}
