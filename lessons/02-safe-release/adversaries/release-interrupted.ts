// Client 1 releases a lock about to expire and is paused between the commands of its release; Client 2 takes
// the lock meanwhile. A release that reads in one command and deletes in another deletes Client 2's lock.
const __release = __probe.fn('release', typeof release === 'undefined' ? undefined : release);
const __r = __probe.node(1);
const __K = 'lock:probe-release';
if (__lab.client === 1) {
  const __mine = 'token-of-client-1';
  await __r.set(__K, __mine, 'PX', 600, 'NX');
  await __probe.call('release', () => __release(__K, __mine));
} else {
  const __mine = 'token-of-client-2';
  await __probe.until(async () => (await __r.set(__K, __mine, 'PX', 5000, 'NX')) === 'OK', 4000, 'Client 2 could not take the lock within 4 s of Client 1 releasing it: release() must delete your own lock.');
  await __lab.job('probe-section').run(1800);
  const __holder = await __r.get(__K);
  __probe.expect(
    __holder === __mine,
    `Client 2's lock was deleted while it worked (the key now holds ${__probe.show(__holder)}): Client 1 was paused inside release() after its first command; its lock expired, Client 2 took the lock, and Client 1's release went on to delete Client 2's lock. Compare and delete in one Lua script, which nothing can interleave.`,
  );
}
__r.disconnect();
