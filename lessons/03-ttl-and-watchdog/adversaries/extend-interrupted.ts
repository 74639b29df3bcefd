// An extend that checks in one command and extends in another extends (and so shortens) the next holder's lock.
const __extend = __probe.fn('extend', typeof extend === 'undefined' ? undefined : extend);
const __r = __probe.node(1);
const __K = 'lock:probe-extend';
if (__lab.client === 1) {
  const __mine = 'token-of-client-1';
  await __r.set(__K, __mine, 'PX', 500, 'NX');
  await __probe.call('extend', () => __extend(__K, __mine, 900));
} else {
  const __mine = 'token-of-client-2';
  await __probe.until(async () => (await __r.set(__K, __mine, 'PX', 4000, 'NX')) === 'OK', 4000, 'Client 2 could not take the lock within 4 s: an extended 900 ms lock should have expired long before.');
  await __lab.job('probe-section').run(2500);
  const __holder = await __r.get(__K);
  __probe.expect(
    __holder === __mine,
    `Client 2 took the lock with a 4 s TTL, and it was gone 2.5 s later while Client 2 still worked (the key holds ${__probe.show(__holder)}): Client 1 was paused inside extend() after its first command; its lock expired, Client 2 took the lock, and Client 1's extend then set the TTL of Client 2's lock. Check the token and extend in one Lua script.`,
  );
}
__r.disconnect();
