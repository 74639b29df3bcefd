// A lock Node 2 never confirmed is one a failover forgets: acquire() must not count it, and must not keep it.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __r = __probe.node(1);
const __K = 'lock:probe-failover';
const __call = `acquire('${__K}', 5000)`;

const __unconfirmed = await __probe.call('acquire', () => __acquire(__K, 5000));
__probe.expect(
  __unconfirmed === null,
  () => `${__call} returned ${__probe.show(__unconfirmed)} while no replica could confirm the lock (replication was held back): if Node 1 died now, Node 2 would be promoted without it and a second client could take the same lock. WAIT for the replicas and count the lock only if they confirmed it.`,
);
const __left = Number(await __r.pttl(__K));
__probe.expect(
  __left === -2,
  `${__call} returned null but left its key on Node 1 (${__left === -1 ? 'with no TTL' : `${__left} ms to live`}): nobody can take the lock until it expires, and nobody holds it. Give back a lock the replicas did not confirm (a token-checked delete).`,
);

__lab.log('probe: replication may flow');
let __token = null;
const __giveUp = Date.now() + 6000;
while ((__token = await __probe.call('acquire', () => __acquire(__K, 5000))) === null && Date.now() < __giveUp) await __lab.sleep(100);
__probe.expect(__token !== null, `once replication flowed again, ${__call} still returned null for 6 s: a lock the replica confirms must count.`);
__r.disconnect();
