// safeToCommit(lock, ms): yes only if, on this client's clock now, the lock outlives a send of ms by more than 100 ms.
// Remaining times stay 40 ms or more from the boundary, so the time the probe itself takes cannot change an answer.
const __safe = __probe.fn('safeToCommit', typeof safeToCommit === 'undefined' ? undefined : safeToCommit);
const __lockWith = (left) => ({ resources: ['lock:invoice-2024-06'], value: 'token-of-client-1', attempts: [], expiration: Date.now() + left });
const __cases = [
  { left: 1500, ms: 800, safe: true },
  { left: 960, ms: 800, safe: true },
  { left: 860, ms: 800, safe: false },
  { left: 700, ms: 800, safe: false },
  { left: 300, ms: 0, safe: true },
  { left: 60, ms: 0, safe: false },
  { left: -200, ms: 0, safe: false },
  { left: -200, ms: 800, safe: false },
];
for (const __c of __cases) {
  const __said = __safe(__lockWith(__c.left), __c.ms);
  if (Boolean(__said) === __c.safe && typeof __said === 'boolean') continue;
  const __state = __c.left < 0 ? `a lock that expired ${-__c.left} ms ago` : `a lock with ${__c.left} ms left`;
  __probe.fail(
    `safeToCommit(${__state}, ${__c.ms}) returned ${__probe.show(__said)}: a send of ${__c.ms} ms needs the lock for ${__c.ms} ms plus 100 ms to spare, ${__c.ms + 100} ms in all, so the answer is ${__c.safe}.` +
      (__c.safe ? '' : ' Saying yes sends the invoice after the lock may have passed to another worker.'),
  );
}
// The same lock, 400 ms later (a pause while rendering): the answer must follow the clock, not a time read earlier.
const __lock = __lockWith(1300);
const __before = __safe(__lock, 800);
__probe.expect(__before === true, () => `safeToCommit(a lock with 1300 ms left, 800) returned ${__probe.show(__before)}: 1300 ms is more than 800 + 100.`);
await __lab.sleep(400);
const __after = __safe(__lock, 800);
__probe.expect(
  __after === false,
  () => `safeToCommit(lock, 800) still returned ${__probe.show(__after)} 400 ms later, when that lock had only about 900 ms left: the check must read the clock (Date.now()) when it is called — a pause between taking the time and sending is exactly what it must see.`,
);
