// The learner's release(key, token) against the three states a key can be in when it is called, then a second
// release of a new lock on the same key, and the key a little later.
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

// 4. The second time round: acquire → release → acquire on the same key. The new lock is a new token, and
// whatever release() remembers of the first must not decide for it.
const __next = 'second-token-of-client-1';
const __callNext = { code: `release('${__K}', '${__next}')` };
await __r.set(__K, __next, 'PX', 5000);
const __again = await __probe.call('release', () => __release(__K, __next));
const __nextLeft = Number(await __r.pttl(__K));
__probe.expect(__nextLeft === -2, 'secondLeft', { call: __callNext, left: __nextLeft === -1 ? 'none' : __nextLeft });
__probe.expect(__again === true, 'ownNotTrue', () => ({ call: __callNext, value: __probe.show(__again) }));

// 5. Nothing the releases left behind (a timer, a retry) may touch the key afterwards: another client's lock,
// taken now, must stay as it is for longer than this lesson's TTL (1 s).
await __r.set(__K, 'token-of-client-2', 'PX', 5000);
await __lab.sleep(1300);
const __later = await __r.get(__K);
__probe.expect(__later === 'token-of-client-2', 'deletedLater', { waited: { duration: 1300 } });
__r.disconnect();
