// A lock Node 2 never confirmed is one a failover forgets: acquire() must not count it, and must not keep it.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __r = __probe.node(1);
const __K = 'lock:probe-failover';
const __call = { code: `acquire('${__K}', 5000)` };

const __unconfirmed = await __probe.call('acquire', () => __acquire(__K, 5000));
__probe.expect(__unconfirmed === null, 'unconfirmedCounted', () => ({ call: __call, value: __probe.show(__unconfirmed) }));
const __left = Number(await __r.pttl(__K));
__probe.expect(__left === -2, 'keyLeft', { call: __call, left: __left === -1 ? 'none' : __left });

__lab.log('probe: replication may flow');
let __token = null;
const __giveUp = Date.now() + 6000;
while ((__token = await __probe.call('acquire', () => __acquire(__K, 5000))) === null && Date.now() < __giveUp) await __lab.sleep(100);
__probe.expect(__token !== null, 'neverAcquired', { call: __call });
__r.disconnect();
