// The learner's release(key, token) against the three states a key can be in when it is called.
const __release = __probe.fn('release', typeof release === 'undefined' ? undefined : release);
const __r = __probe.node(1);
const __K = 'lock:probe-release';
const __mine = 'token-of-client-1';
const __call = `release('${__K}', '${__mine}')`;

// 1. The lock passed to someone else (our TTL ran out): release must leave it alone and say so.
await __r.set(__K, 'token-of-client-2', 'PX', 5000);
const __foreign = await __probe.call('release', () => __release(__K, __mine));
const __after = await __r.get(__K);
__probe.expect(__after === 'token-of-client-2', `${__call} deleted a lock that holds Client 2's token: whoever holds it now runs without a lock. Delete the key only if it still holds your token.`);
const __ttl = Number(await __r.pttl(__K));
__probe.expect(__ttl > 4000, `${__call} changed the TTL of Client 2's lock to ${__ttl} ms: a release must leave another client's lock as it is.`);
__probe.expect(__foreign === false, () => `${__call} returned ${__probe.show(__foreign)} for a lock that holds another client's token: it released nothing, so it must return false.`);

// 2. Our own lock: release must delete it, or the next client waits for the TTL.
await __r.set(__K, __mine, 'PX', 5000);
const __own = await __probe.call('release', () => __release(__K, __mine));
const __left = Number(await __r.pttl(__K));
__probe.expect(__left === -2, `${__call} on your own lock left the key there (${__left === -1 ? 'with no TTL' : `${__left} ms left`}): nobody else can take the lock until it expires. Check the arguments: KEYS[1] is the key, ARGV[1] the token.`);
__probe.expect(__own === true, () => `${__call} deleted your own lock but returned ${__probe.show(__own)}: the caller must learn that it released it.`);

// 3. The lock already expired: nothing to release.
const __gone = await __probe.call('release', () => __release(__K, __mine));
__probe.expect(__gone === false, () => `${__call} returned ${__probe.show(__gone)} when the key no longer existed (the lock had expired): it released nothing, so it must return false.`);
__r.disconnect();
