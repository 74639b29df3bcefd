// What WAIT confirms is the writes sent before it: a lock counts only once the replica has the SET itself. A replica
// that lags makes the difference visible at once — no failover needed to see that the lock would be lost in one.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __K = 'lock:probe-failover';
const __call = { code: `acquire('${__K}', 5000)` };
let __token = null;
const __giveUp = Date.now() + 6000;
// A WAIT may time out on a busy machine: a right acquire() then gives the lock back and is called again, as a worker would.
// So may a command: a right acquire() that throws then (a stalled master, then READONLY from the replica it tried next)
// claimed no lock, and the worker calls it again too.
while ((__token = await __probe.call('acquire', () => __acquire(__K, 5000)).catch(() => null)) === null && Date.now() < __giveUp) await __lab.sleep(100);
__probe.expect(typeof __token === 'string', 'neverAcquired', () => ({ call: __call, value: __probe.show(__token) }));
const __replica = __probe.node(2);
const __there = await __replica.get(__K);
__replica.disconnect();
__probe.expect(__there === __token, 'replicaLacks', () => ({ call: __call, there: __probe.show(__there) }));
