// A failed Redlock attempt must undo its partial lock: votes left behind on a minority keep everyone from a majority.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __key = typeof KEY === 'string' ? KEY : 'lock:send-invoices';
const __lock = await __probe.call('acquire', () => __acquire());
__probe.expect(__lock === null, 'minorityLock', () => ({ value: __probe.show(__lock) }));
const __nodes = [1, 2].map((n) => __probe.node(n));
const __left = [];
for (const [i, r] of __nodes.entries()) {
  const ttl = Number(await r.pttl(__key));
  if (ttl !== -2) __left.push(__probe.say('nodeLeft', { node: i + 1, ttl: ttl === -1 ? 'none' : ttl }));
  r.disconnect();
}
__probe.expect(__left.length === 0, 'votesLeft', { nodes: { list: __left } });

// The second time round: the driver retries after a failed attempt. The retry counts only its own votes, two again,
// whatever the first attempt left in the program's variables.
const __retry = await __probe.call('acquire', () => __acquire());
__probe.expect(__retry === null, 'minorityLockAgain', () => ({ value: __probe.show(__retry) }));
