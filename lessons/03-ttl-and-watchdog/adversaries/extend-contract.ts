// The learner's extend(key, token, ttlMs) against the three states a key can be in when the watchdog calls it.
const __extend = __probe.fn('extend', typeof extend === 'undefined' ? undefined : extend);
const __r = __probe.node(1);
const __K = 'lock:probe-extend';
const __mine = 'token-of-client-1';
const __call = `extend('${__K}', '${__mine}', 900)`;

// 1. Our own lock, 300 ms from expiring: extend must give it 900 ms again, no more, and say so.
await __r.set(__K, __mine, 'PX', 300);
const __own = await __probe.call('extend', () => __extend(__K, __mine, 900));
const __ttl = Number(await __r.pttl(__K));
__probe.expect(__ttl !== -1, `after ${__call} on your own lock the key has no TTL at all: if this client crashed now, the lock would never free. Reset the TTL (PEXPIRE), do not remove it.`);
__probe.expect(__ttl > 600 && __ttl <= 900, `after ${__call} on your own lock its TTL is ${__ttl} ms, not 900: ${__ttl > 900 ? 'ttlMs is in milliseconds (PEXPIRE), not seconds (EXPIRE).' : 'the lock was not extended.'}`);
__probe.expect(__own === true, () => `${__call} extended your own lock but returned ${__probe.show(__own)}: the watchdog would believe the lock is lost.`);

// 2. The lock passed to another client: extend must leave it alone and say so.
await __r.set(__K, 'token-of-client-2', 'PX', 3000);
const __foreign = await __probe.call('extend', () => __extend(__K, __mine, 900));
const __theirs = Number(await __r.pttl(__K));
const __holder = await __r.get(__K);
__probe.expect(__holder === 'token-of-client-2', `${__call} changed a lock that holds Client 2's token (it now holds ${__probe.show(__holder)}).`);
__probe.expect(__theirs > 2000, `${__call} changed the TTL of Client 2's lock to ${__theirs === -1 ? 'none' : `${__theirs} ms`}: extend only a key that still holds your token.`);
__probe.expect(__foreign === false, () => `${__call} returned ${__probe.show(__foreign)} for a lock that holds another client's token: the watchdog would go on as if it held the lock.`);

// 3. The lock expired: nothing to extend, and no key may appear.
await __r.del(__K);
const __gone = await __probe.call('extend', () => __extend(__K, __mine, 900));
__probe.expect(Number(await __r.exists(__K)) === 0, `${__call} on an expired lock created the key again: a lock nobody took.`);
__probe.expect(__gone === false, () => `${__call} returned ${__probe.show(__gone)} for a lock that had expired: it extended nothing, so it must return false.`);
__r.disconnect();
