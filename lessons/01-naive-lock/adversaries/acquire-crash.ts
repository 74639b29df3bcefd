// A crash between two commands of acquire() must not leave a lock that never frees.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __r = __probe.node(1);
const __K = 'lock:probe-acquire';
if (__lab.client === 1) {
  await __probe.call('acquire', () => __acquire(__K, 600));
  // Crashed before here, by the scenario; a client that was not is judged by Client 2 all the same.
} else {
  let __token = null;
  const __giveUp = Date.now() + 2500;
  while ((__token = await __acquire(__K, 600)) === null && Date.now() < __giveUp) await __lab.sleep(50);
  const __ttl = Number(await __r.pttl(__K));
  __probe.expect(__token !== null, 'neverFreed', { ttl: __ttl === -1 ? 'none' : __ttl });
}
__r.disconnect();
