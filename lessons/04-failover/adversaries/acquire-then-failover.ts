// The lock must be on the replica before acquire() counts it: what WAIT confirms is the writes sent before it.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __K = 'lock:probe-failover';
const __token = await __probe.call('acquire', () => __acquire(__K, 5000));
__probe.expect(typeof __token === 'string', () => `acquire('${__K}', 5000) returned ${__probe.show(__token)} with both nodes up and replication flowing: a lock the replica confirms must count.`);
__lab.log('probe: fail over now');
const __r2 = __probe.node(2);
await __probe.until(async () => (await __r2.set('probe:writable', '1').catch(() => null)) === 'OK', 4000, 'Node 2 was not promoted within 4 s of the failover.');
const __held = await __r2.get(__K);
__probe.expect(
  __held === __token,
  `acquire('${__K}', 5000) returned a lock that Node 2 did not have when Node 1 died and Node 2 was promoted (Node 2 holds ${__probe.show(__held)}): the next client takes the same lock there. WAIT confirms the writes sent before it: send it after the SET, so the lock counts only once the replica has it.`,
);
__r2.disconnect();
