// A failed Redlock attempt must undo its partial lock: votes left behind on a minority keep everyone from a majority.
const __acquire = __probe.fn('acquire', typeof acquire === 'undefined' ? undefined : acquire);
const __key = typeof KEY === 'string' ? KEY : 'lock:send-invoices';
const __lock = await __probe.call('acquire', () => __acquire());
__probe.expect(
  __lock === null,
  () => `acquire() returned ${__probe.show(__lock)} with only Nodes 1 and 2 of five reachable: two votes are not a majority, so another client could collect three and hold the same lock.`,
);
const __nodes = [1, 2].map((n) => __probe.node(n));
const __left = [];
for (const [i, r] of __nodes.entries()) {
  const ttl = Number(await r.pttl(__key));
  if (ttl !== -2) __left.push(`Node ${i + 1} (${ttl === -1 ? 'no TTL' : `${ttl} ms to live`})`);
  r.disconnect();
}
__probe.expect(
  __left.length === 0,
  `acquire() failed to reach a majority and returned null, but left its key on ${__left.join(' and ')}: until those votes expire, no client can collect three of five, and when several clients each keep a few votes nobody ever can. Release everywhere after a failed attempt.`,
);
