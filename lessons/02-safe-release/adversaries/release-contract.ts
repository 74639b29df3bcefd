// The learner's release(key, token) against the three states a key can be in when it is called.
const __release = __probe.fn('release', typeof release === 'undefined' ? undefined : release);
const __r = __probe.node(1);
const __K = 'lock:probe-release';
const __mine = 'token-of-client-1';
const __call = { code: `release('${__K}', '${__mine}')` };

// 1. The lock passed to someone else (our TTL ran out): release must leave it alone and say so.
await __r.set(__K, 'token-of-client-2', 'PX', 5000);
const __foreign = await __probe.call('release', () => __release(__K, __mine));
const __after = await __r.get(__K);
__probe.expect(__after === 'token-of-client-2', 'deletedForeign', { call: __call });
const __ttl = Number(await __r.pttl(__K));
__probe.expect(__ttl > 4000, 'changedForeignTtl', { call: __call, ttl: __ttl });
__probe.expect(__foreign === false, 'foreignNotFalse', () => ({ call: __call, value: __probe.show(__foreign) }));

// 2. Our own lock: release must delete it, or the next client waits for the TTL.
await __r.set(__K, __mine, 'PX', 5000);
const __own = await __probe.call('release', () => __release(__K, __mine));
const __left = Number(await __r.pttl(__K));
__probe.expect(__left === -2, 'ownLeft', { call: __call, left: __left === -1 ? 'none' : __left });
__probe.expect(__own === true, 'ownNotTrue', () => ({ call: __call, value: __probe.show(__own) }));

// 3. The lock already expired: nothing to release.
const __gone = await __probe.call('release', () => __release(__K, __mine));
__probe.expect(__gone === false, 'goneNotFalse', () => ({ call: __call, value: __probe.show(__gone) }));
__r.disconnect();
