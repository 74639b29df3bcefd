// What WAIT confirms is the writes sent before it: a lock counts only once the replica has the SET itself. A replica
// that lags makes the difference visible at once — no failover needed to see that the lock would be lost in one.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __K = 'lock:probe-failover';
const __call = `acquire('${__K}', 5000)`;
let __token = null;
const __giveUp = Date.now() + 6000;
// A WAIT may time out on a busy machine: a right acquire() then gives the lock back and is called again, as a worker would.
// So may a command: a right acquire() that throws then (a stalled master, then READONLY from the replica it tried next)
// claimed no lock, and the worker calls it again too.
while ((__token = await __probe.call('acquire', () => __acquire(__K, 5000)).catch(() => null)) === null && Date.now() < __giveUp) await __lab.sleep(100);
__probe.expect(typeof __token === 'string', () => `${__call} returned ${__probe.show(__token)} for 6 s with both nodes up and replication flowing (80 ms behind): a lock the replica confirms must count.`);
const __replica = __probe.node(2);
const __there = await __replica.get(__K);
__replica.disconnect();
__probe.expect(
  __there === __token,
  `${__call} returned a lock that Node 2, the replica, did not have yet (it holds ${__probe.show(__there)}): had Node 1 died at that moment, Node 2 would have been promoted without it and the next client would take the same lock. WAIT confirms the writes sent before it: send it after the SET.`,
);
