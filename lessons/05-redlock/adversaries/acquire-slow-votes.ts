// Redlock's validity: a lock that took longer to collect than its TTL is already gone when acquire() returns.
// Judged on the client's own clock (what Redlock itself must use), so a busy network cannot blur the answer.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __ttl = typeof TTL_MS === 'number' ? TTL_MS : 3000;
const __began = Date.now();
const __lock = await __probe.call('acquire', () => __acquire());
const __took = Date.now() - __began;
__probe.expect(
  __lock === null || __took < __ttl,
  () => `acquire() took ${(__took / 1000).toFixed(1)} s (Client 1 was paused while the votes came in) and still returned a lock valid for ${__lock && __lock.validityMs} ms, though its ${__ttl} ms TTL had run out on every node before it returned: another client can take the lock at once. The validity is the TTL minus the time spent acquiring (minus the clock drift); a lock with no validity left is no lock.`,
);
