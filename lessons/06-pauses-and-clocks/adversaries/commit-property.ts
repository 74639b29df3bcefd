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
  // A holder paused past the lock's whole TTL (2 s) and more: the lock expired long ago.
  { left: -2500, ms: 800, safe: false },
  { left: -5000, ms: 0, safe: false },
];
for (const __c of __cases) {
  const __said = __safe(__lockWith(__c.left), __c.ms);
  if (Boolean(__said) === __c.safe && typeof __said === 'boolean') continue;
  const __state = __c.left < 0 ? __probe.say('expiredAgo', { ago: -__c.left }) : __probe.say('withLeft', { left: __c.left });
  __probe.fail('wrongAnswer', { state: __state, ms: __c.ms, value: __probe.show(__said), total: __c.ms + 100, answer: __probe.show(__c.safe), safe: __c.safe ? 'yes' : 'no' });
}
// The same lock, 400 ms later (a pause while rendering): the answer must follow the clock, not a time read earlier.
const __lock = __lockWith(1300);
const __before = __safe(__lock, 800);
__probe.expect(__before === true, 'beforeNotTrue', () => ({ value: __probe.show(__before) }));
await __lab.sleep(400);
const __after = __safe(__lock, 800);
__probe.expect(__after === false, 'staleClock', () => ({ value: __probe.show(__after) }));
