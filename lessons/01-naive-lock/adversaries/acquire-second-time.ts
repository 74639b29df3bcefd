// The second time round: one client acquires the same lock again — after its first lock expired and another
// client took it, and after a release. Each call must ask Redis: a memory of holding the lock (a token kept for the
// key) is wrong once the lock expired under its holder (a crash, a pause) or was given back.
// Its sentences are the adversary's `says` (acquire-second-time.json), named by key.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __release = typeof release === 'function' ? release : null;
const __r = __probe.node(1);
const __K = 'lock:probe-second';
const __call = { code: `acquire('${__K}', 400)` };
const __other = 'token-of-client-2';

// 1. A first lock, left to expire; another client takes the key meanwhile.
const __first = await __probe.call('acquire', () => __acquire(__K, 400));
__probe.expect(typeof __first === 'string' && __first.length > 0, 'freeNotToken', () => ({ call: __call, value: __probe.show(__first) }));
await __probe.until(async () => Number(await __r.pttl(__K)) === -2, 3000, 'neverExpired', { call: __call });
await __r.set(__K, __other, 'PX', 5000);
const __again = await __probe.call('acquire', () => __acquire(__K, 400));
const __holder = await __r.get(__K);
__probe.expect(__again === null, 'expiredTakenBack', () => ({ call: __call, value: __probe.show(__again) }));
__probe.expect(__holder === __other, 'foreignOverwritten', () => ({ call: __call, holder: __probe.show(__holder) }));

// 2. Acquire, release (the learner's own, when the program has one), acquire: the new lock must be in Redis.
await __r.del(__K);
const __mine = await __probe.call('acquire', () => __acquire(__K, 400));
__probe.expect(typeof __mine === 'string' && __mine.length > 0, 'freeNotToken', () => ({ call: __call, value: __probe.show(__mine) }));
// Release is not what is judged here: whatever the learner's does, the key is then free.
if (__release) await Promise.resolve(__release(__K, __mine)).catch(() => undefined);
await __r.del(__K);
const __next = await __probe.call('acquire', () => __acquire(__K, 400));
const __stored = await __r.get(__K);
__probe.expect(typeof __next === 'string' && __next.length > 0, 'freeNotToken', () => ({ call: __call, value: __probe.show(__next) }));
__probe.expect(__stored === __next, 'notStored', () => ({ call: __call, value: __probe.show(__next), stored: __probe.show(__stored) }));
__r.disconnect();
