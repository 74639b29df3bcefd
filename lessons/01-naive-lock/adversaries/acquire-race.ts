// A check and a set in two commands: a client paused between them wakes up to take a lock someone else holds.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __r = __probe.node(1);
const __K = 'lock:probe-acquire';
const __RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
let __token = null;
if (__lab.client === 1) {
  __token = await __probe.call('acquire', () => __acquire(__K, 3000));
} else {
  const __giveUp = Date.now() + 4000;
  while ((__token = await __acquire(__K, 3000)) === null && Date.now() < __giveUp) await __lab.sleep(30);
}
if (__token !== null) {
  const __holder = await __r.get(__K);
  __probe.expect(__holder === __token, 'twoHolders', () => ({ client: __lab.client, token: __probe.show(__token), holder: __probe.show(__holder) }));
  await __lab.job('probe-section').run(__lab.client === 1 ? 300 : 1500);
  await __r.eval(__RELEASE, 1, __K, __token);
}
__r.disconnect();
