// The learner's acquire(key, ttlMs): what it stores, for how long, and what it answers when the lock is taken.
// Its sentences are the adversary's `says` (acquire-contract.json), named by key.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __r = __probe.node(1);
const __K = 'lock:probe-acquire';
const __call = { code: `acquire('${__K}', 700)` };

const __first = await __probe.call('acquire', () => __acquire(__K, 700));
__probe.expect(typeof __first === 'string' && __first.length > 0, 'freeNotToken', () => ({ call: __call, value: __probe.show(__first) }));
const __stored = await __r.get(__K);
__probe.expect(__stored === __first, 'notStored', () => ({ call: __call, value: __probe.show(__first), stored: __probe.show(__stored) }));
const __ttl = Number(await __r.pttl(__K));
__probe.expect(__ttl !== -1, 'noTtl', { call: __call });
__probe.expect(__ttl > 0 && __ttl <= 700, 'ttlTooLong', { call: __call, ttl: __ttl });

const __second = await __probe.call('acquire', () => __acquire(__K, 700));
__probe.expect(__second === null, 'takenNotNull', () => ({ call: __call, value: __probe.show(__second) }));
__probe.expect((await __r.get(__K)) === __first, 'overwrote', { call: __call });

await __probe.until(async () => Number(await __r.exists(__K)) === 0, 2000, 'neverExpired');
const __third = await __probe.call('acquire', () => __acquire(__K, 700));
__probe.expect(typeof __third === 'string' && __third !== __first, 'expiredNotTaken', () => ({ call: __call, value: __probe.show(__third) }));
__r.disconnect();
