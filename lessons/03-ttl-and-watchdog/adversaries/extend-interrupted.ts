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
  await __probe.until(async () => (await __r.set(__K, __mine, 'PX', 4000, 'NX')) === 'OK', 4000, 'notExpired');
  await __lab.job('probe-section').run(2500);
  const __holder = await __r.get(__K);
  __probe.expect(__holder === __mine, 'shortened', () => ({ holder: __probe.show(__holder) }));
}
__r.disconnect();
