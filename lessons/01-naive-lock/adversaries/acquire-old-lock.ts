// The learner's acquire(key, ttlMs) on a lock that has been held a long time: a third of its TTL gone, then most of
// it, then nearly all. However old, a live lock is held; only its expiry frees it (a holder may be paused, not dead).
// Each call is judged on Redis's own clock (TIME): a call that took the lock while the old one was still live fails,
// one that may have come after the expiry (a slow machine) proves nothing and is not counted.
// Its sentences are the adversary's `says` (acquire-old-lock.json), named by key.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __r = __probe.node(1);
const __TTL = 2000;
const __serverMs = async () => {
  const [seconds, micros] = await __r.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
};

for (const __leftAtMost of [1300, 700, 250]) {
  const __K = `lock:probe-old-${__leftAtMost}`;
  const __holder = await __probe.call('acquire', () => __acquire(__K, __TTL));
  __probe.expect(typeof __holder === 'string' && __holder.length > 0, 'freeNotToken', () => ({ call: { code: `acquire('${__K}', ${__TTL})` }, value: __probe.show(__holder) }));
  let __expiresAt = 0;
  let __left = 0;
  await __probe.until(async () => {
    __left = Number(await __r.pttl(__K));
    __expiresAt = (await __serverMs()) + __left;
    return __left <= __leftAtMost;
  }, __TTL + 1000, 'neverAged', { ttl: __TTL });
  // No TTL, or gone already: not this check's business (the contract check judges TTLs).
  if (__left <= 0) continue;
  const __gone = Math.round((100 * (__TTL - (__expiresAt - (await __serverMs())))) / __TTL);
  const __call = { code: `acquire('${__K}', ${__TTL})` };
  const __again = await __probe.call('acquire', () => __acquire(__K, __TTL));
  const __now = await __serverMs();
  const __stored = await __r.get(__K);
  // Only a call answered while the first lock was surely live counts (50 ms for the round trips between).
  if (__now < __expiresAt - 50) {
    __probe.expect(__again === null, 'oldTakenNotNull', () => ({ call: __call, gone: __gone, value: __probe.show(__again) }));
    __probe.expect(__stored === __holder, 'oldOverwritten', { call: __call, gone: __gone });
  }
}
__r.disconnect();
