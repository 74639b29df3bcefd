// Redlock's validity: a lock that took longer to collect than its TTL is already gone when acquire() returns.
// Judged on the client's own clock (what Redlock itself must use), so a busy network cannot blur the answer.
// The pause comes with the third vote granted in a call. A call that never got three (its commands timed out
// on a busy machine) decides nothing, so acquire() is called again, a few times at most.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __ttl = typeof TTL_MS === 'number' ? TTL_MS : 3000;
let __lock = null;
let __took = 0;
for (let __try = 0; __try < 5; __try++) {
  const __began = Date.now();
  __lock = await __probe.call('acquire', () => __acquire());
  __took = Date.now() - __began;
  // A lock, or a call the pause was part of (it outlasts the TTL): that call is the answer.
  if (__lock !== null || __took >= __ttl) break;
  await __lab.sleep(100);
}
__probe.expect(__lock === null || __took < __ttl, 'staleLock', () => ({ took: { duration: __took }, validity: __probe.show(__lock && __lock.validityMs), ttl: __ttl }));
