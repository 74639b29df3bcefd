// Redlock's validity: a lock that took longer to collect than its TTL is already gone when acquire() returns.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __key = typeof KEY === 'string' ? KEY : 'lock:send-invoices';
const __began = Date.now();
const __lock = await __probe.call('acquire', () => __acquire());
const __took = Date.now() - __began;
if (__lock !== null && typeof __lock === 'object') {
  const __nodes = [1, 2, 3, 4, 5].map((n) => __probe.node(n));
  const __still = (await Promise.all(__nodes.map((r) => r.get(__key).catch(() => null)))).filter((v) => v === __lock.token).length;
  for (const r of __nodes) r.disconnect();
  __probe.expect(
    __still >= 3,
    `acquire() took ${(__took / 1000).toFixed(1)} s (Client 1 was paused while the votes came in) and still returned a lock valid for ${__lock.validityMs} ms, but its keys had already expired on ${5 - __still} of 5 nodes: another client can take the lock at once. The validity is the TTL minus the time spent acquiring (minus the clock drift); a lock with no validity left is no lock.`,
  );
}
