// The learner's extend(key, token, ttlMs) against the three states a key can be in when the watchdog calls it.
const __extend = __probe.fn('extend', typeof extend === 'undefined' ? undefined : extend);
const __r = __probe.node(1);
const __K = 'lock:probe-extend';
const __mine = 'token-of-client-1';
const __call = { code: `extend('${__K}', '${__mine}', 900)` };

// 1. Our own lock, 300 ms from expiring: extend must give it 900 ms again, no more, and say so.
await __r.set(__K, __mine, 'PX', 300);
const __own = await __probe.call('extend', () => __extend(__K, __mine, 900));
const __ttl = Number(await __r.pttl(__K));
__probe.expect(__ttl !== -1, 'ownNoTtl', { call: __call });
// Too long, said by what the figure shows: 900 s (EXPIRE, seconds), or at most the 300 ms it had left plus 900
// (added to the remaining time), or longer some other way.
const __why = __ttl <= 900 ? 'short' : __ttl >= 60_000 ? 'seconds' : __ttl <= 1200 ? 'added' : 'longer';
__probe.expect(__ttl > 600 && __ttl <= 900, 'ownWrongTtl', { call: __call, ttl: __ttl, why: __why });
__probe.expect(__own === true, 'ownNotTrue', () => ({ call: __call, value: __probe.show(__own) }));

// 2. The lock passed to another client: extend must leave it alone and say so.
await __r.set(__K, 'token-of-client-2', 'PX', 3000);
const __foreign = await __probe.call('extend', () => __extend(__K, __mine, 900));
const __theirs = Number(await __r.pttl(__K));
const __holder = await __r.get(__K);
__probe.expect(__holder === 'token-of-client-2', 'changedForeign', () => ({ call: __call, holder: __probe.show(__holder) }));
__probe.expect(__theirs > 2000, 'changedForeignTtl', { call: __call, ttl: __theirs === -1 ? 'none' : __theirs });
__probe.expect(__foreign === false, 'foreignNotFalse', () => ({ call: __call, value: __probe.show(__foreign) }));

// 3. The lock expired: nothing to extend, and no key may appear.
await __r.del(__K);
const __gone = await __probe.call('extend', () => __extend(__K, __mine, 900));
__probe.expect(Number(await __r.exists(__K)) === 0, 'recreated', { call: __call });
__probe.expect(__gone === false, 'goneNotFalse', () => ({ call: __call, value: __probe.show(__gone) }));
__r.disconnect();
