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
  await __probe.until(async () => (await __r.set(__K, __mine, 'PX', 5000, 'NX')) === 'OK', 4000, 'notFreed');
  await __lab.job('probe-section').run(1800);
  const __holder = await __r.get(__K);
  __probe.expect(__holder === __mine, 'deletedWhileWorking', () => ({ holder: __probe.show(__holder) }));
}
__r.disconnect();
