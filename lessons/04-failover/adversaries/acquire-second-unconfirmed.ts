// The second time round: a lock the replica confirmed once says nothing of the next. The probe takes a lock while
// replication flows (so an acquire() that remembers "the replicas confirm" has seen them do it), gives it back, holds
// replication back and calls acquire() again: a lock it returns now must be on Node 2 — judged on what Node 2 holds,
// so a right answer whose WAIT confirmed before the hold took effect passes too.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __r = __probe.node(1);
const __replica = __probe.node(2);
const __K = 'lock:probe-second';
const __call = { code: `acquire('${__K}', 5000)` };

// A WAIT may time out on a busy machine: a right acquire() then gives the lock back and is called again, as a worker
// would; one that throws (a stalled master) claimed no lock either.
let __first = null;
const __giveUp = Date.now() + 6000;
while ((__first = await __probe.call('acquire', () => __acquire(__K, 5000)).catch(() => null)) === null && Date.now() < __giveUp) await __lab.sleep(100);
__probe.expect(typeof __first === 'string', 'neverAcquired', () => ({ call: __call, value: __probe.show(__first) }));
await __r.del(__K);

// The hold is the server's, a loop turn or two after this line: wait until a write no longer reaches Node 2 (if it
// never shows, the judgement below is still sound, only less likely to catch a cached confirmation).
__lab.log('probe: hold replication');
for (let __n = 1; __n <= 20; __n++) {
  await __r.set('probe:replication-marker', String(__n), 'PX', 10000);
  await __lab.sleep(250);
  if ((await __replica.get('probe:replication-marker')) !== String(__n)) break;
}

const __second = await __probe.call('acquire', () => __acquire(__K, 5000)).catch(() => null);
if (typeof __second === 'string') {
  const __there = await __replica.get(__K);
  __probe.expect(__there === __second, 'secondUnconfirmed', () => ({ call: __call, there: __probe.show(__there) }));
}
__r.disconnect();
__replica.disconnect();
