// Redlock on a client whose clock is five seconds fast (the scenario skews it): every node must still count the
// lock's TTL itself. A validity worked out as a difference of two readings of one clock is unaffected by the skew;
// an expiry sent as a moment of the client's clock (PXAT) is off by the whole skew on every node.
// Its sentences are the adversary's `says` (acquire-skewed-clock.json), named by key.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __ttl = typeof TTL_MS === 'number' ? TTL_MS : 3000;
const __key = typeof KEY === 'string' ? KEY : 'lock:send-invoices';
// A call whose votes timed out on a busy machine decides nothing: acquire() is called again, a few times at most.
let __lock = null;
for (let __try = 0; __try < 5 && __lock === null; __try++) {
  __lock = await __probe.call('acquire', () => __acquire());
  if (__lock === null) await __lab.sleep(100);
}
if (__lock !== null) {
  const __token = typeof __lock === 'object' && __lock !== null ? __lock.token : __lock;
  for (let __n = 1; __n <= 5; __n++) {
    const __r = __probe.node(__n);
    const __holder = await __r.get(__key).catch(() => null);
    const __left = __holder === __token ? Number(await __r.pttl(__key)) : null;
    __r.disconnect();
    if (__left === null) continue;
    __probe.expect(__left > 0 && __left <= __ttl, 'skewedTtl', { node: __n, key: __probe.show(__key), ttl: __ttl, state: __left === -1 ? 'noTtl' : 'ttl', left: __left });
  }
}
