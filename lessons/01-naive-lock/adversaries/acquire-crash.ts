// A crash between two commands of acquire() must not leave a lock that never frees; nor may a failed acquire()
// keep alive the lock it did not get.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __r = __probe.node(1);
const __K = 'lock:probe-acquire';
if (__lab.client === 1) {
  await __probe.call('acquire', () => __acquire(__K, 600));
  // Crashed before here, by the scenario; a client that was not is judged by Client 2 all the same.
} else {
  // What kept the lock: a key with no TTL, or a TTL set again — and when a failed acquire() of Client 2's own is
  // seen raising it (PTTL before and after the call that returned null), that is what the sentence names.
  let __token = null;
  let __raised = null;
  const __giveUp = Date.now() + 2500;
  for (;;) {
    const __before = Number(await __r.pttl(__K));
    __token = await __acquire(__K, 600);
    if (__token !== null) break;
    const __after = Number(await __r.pttl(__K));
    if (__raised === null && __before > 0 && __after > __before + 50) __raised = { before: __before, after: __after };
    if (Date.now() >= __giveUp) break;
    await __lab.sleep(50);
  }
  const __ttl = Number(await __r.pttl(__K));
  if (__token === null && __raised !== null) __probe.fail('failedTryRefreshed', { before: __raised.before, after: __raised.after });
  __probe.expect(__token !== null, 'neverFreed', { ttl: __ttl === -1 ? 'none' : __ttl });
}
__r.disconnect();
