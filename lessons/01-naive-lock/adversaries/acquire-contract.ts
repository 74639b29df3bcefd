// The learner's acquire(key, ttlMs): what it stores, for how long, and what it answers when the lock is taken.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __r = __probe.node(1);
const __K = 'lock:probe-acquire';
const __call = `acquire('${__K}', 700)`;

const __first = await __probe.call('acquire', () => __acquire(__K, 700));
__probe.expect(typeof __first === 'string' && __first.length > 0, () => `${__call} on a free lock returned ${__probe.show(__first)}: it must return the token it stored.`);
const __stored = await __r.get(__K);
__probe.expect(__stored === __first, () => `${__call} returned ${__probe.show(__first)} but the key holds ${__probe.show(__stored)}: return the token you stored, so only you can release it.`);
const __ttl = Number(await __r.pttl(__K));
__probe.expect(__ttl !== -1, `after ${__call} the key has no TTL: if this client crashed now, nobody could ever take the lock again. Set the TTL in the same command (SET key token NX PX ttlMs).`);
__probe.expect(__ttl > 0 && __ttl <= 700, `after ${__call} the key's TTL is ${__ttl} ms, not at most 700: ttlMs is in milliseconds (PX), not seconds (EX).`);

const __second = await __probe.call('acquire', () => __acquire(__K, 700));
__probe.expect(__second === null, () => `${__call} on a lock another caller holds returned ${__probe.show(__second)}: two clients would both believe they hold the lock. It must return null.`);
__probe.expect((await __r.get(__K)) === __first, `${__call} on a taken lock changed the key: it overwrote the holder's token.`);

await __probe.until(async () => Number(await __r.exists(__K)) === 0, 2000, `the key was still there 2 s after a 700 ms lock was taken: its TTL does not work.`);
const __third = await __probe.call('acquire', () => __acquire(__K, 700));
__probe.expect(typeof __third === 'string' && __third !== __first, () => `${__call} once the lock had expired returned ${__probe.show(__third)}: it must take the free lock with a new token.`);
__r.disconnect();
