// safeToCommit(lock, ms) on a client whose clock steps 5 s ahead while it runs (the scenario steps it as the probe
// logs its line), as NTP or a resumed VM steps a clock. Redlock reads lock.expiration on the client's clock
// (Date.now()), so "now" must be read on that same clock: every answer stays what it was before the step.
const __safe = __probe.fn('safeToCommit', typeof safeToCommit === 'undefined' ? undefined : safeToCommit);
const __lockWith = (left) => ({ resources: ['lock:invoice-2024-06'], value: 'token-of-client-1', attempts: [], expiration: Date.now() + left });
const __cases = [
  { left: 1500, ms: 800, safe: true },
  { left: 700, ms: 800, safe: false },
  { left: -2500, ms: 800, safe: false },
];
const __answer = (c) => __safe(__lockWith(c.left), c.ms);
const __right = (c, said) => Boolean(said) === c.safe && typeof said === 'boolean';
// Before the step: an answer already wrong here is a mistake of its own, not the clock's, and commit-property
// names it; this check judges only what the step changes.
const __rightBefore = __cases.every((c) => __right(c, __answer(c)));

const __wallAtStart = Date.now();
const __monoAtStart = performance.now();
__lab.log('probe: step the clock');
// The step is carried out next to the client as the line is logged; this waits only for the loop turn it may take.
await __probe.until(() => Date.now() - __wallAtStart - (performance.now() - __monoAtStart) > 4000, 2000, 'clockNeverStepped');
for (const __c of __rightBefore ? __cases : []) {
  const __said = __answer(__c);
  if (__right(__c, __said)) continue;
  const __state = __c.left < 0 ? __probe.say('expiredAgo', { ago: -__c.left }) : __probe.say('withLeft', { left: __c.left });
  __probe.fail('steppedAnswer', { state: __state, ms: __c.ms, value: __probe.show(__said), answer: __probe.show(__c.safe) });
}
