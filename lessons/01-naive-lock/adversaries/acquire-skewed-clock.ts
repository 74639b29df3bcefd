// The learner's acquire(key, ttlMs) on a client whose clock is five seconds fast (the scenario skews it): the TTL
// Redis holds must still be ttlMs, counted by Redis, whatever the client's clock says.
// Its sentences are the adversary's `says` (acquire-skewed-clock.json), named by key.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __r = __probe.node(1);
const __K = 'lock:probe-skewed';
const __call = { code: `acquire('${__K}', 700)` };

const __token = await __probe.call('acquire', () => __acquire(__K, 700));
__probe.expect(typeof __token === 'string' && __token.length > 0, 'freeNotToken', () => ({ call: __call, value: __probe.show(__token) }));
const __ttl = Number(await __r.pttl(__K));
__probe.expect(__ttl > 0 && __ttl <= 700, 'skewedTtl', { call: __call, state: __ttl === -2 ? 'gone' : __ttl === -1 ? 'noTtl' : 'ttl', ttl: __ttl });
__r.disconnect();
