// fencedWrite(key, value, token) against the fenced store: a newer token is accepted, an older one refused — and
// a refusal is an answer (false), not a crash.
const __fencedWrite = __probe.fn('fencedWrite', typeof fencedWrite === 'undefined' ? undefined : fencedWrite);
const __K = 'probe-invoice';
/** The call as code: one left-to-right unit inside a right-to-left sentence. */
const __call = (value, token) => ({ code: `fencedWrite('${__K}', ${value === null ? '…' : `'${value}'`}, ${token})` });
async function __write(value, token) {
  try {
    return { said: await __probe.call('fencedWrite', () => __fencedWrite(__K, value, token)) };
  } catch (error) {
    return { threw: error && error.code ? `${error.code}: ${error.message}` : String(error) };
  }
}
const __first = await __write('sent with token 5', 5);
__probe.expect(!__first.threw, 'firstThrew', () => ({ call: __call(null, 5), error: { code: __first.threw } }));
__probe.expect(__first.said === true, 'firstNotTrue', () => ({ call: __call(null, 5), value: __probe.show(__first.said) }));
__probe.expect((await __lab.store.read(__K)) === 'sent with token 5', 'firstNotStored', { call: __call('sent with token 5', 5) });

// The token counter stands where five grants left it: a refused writer must not draw a new token (a retry with a
// fresh one is a stale holder overwriting the current one).
const __counter = __probe.node(1);
const __COUNTER = 'fencing:invoice-2024-06';
await __counter.set(__COUNTER, '5');
const __stale = await __write('sent with token 3', 3);
const __counted = await __counter.get(__COUNTER);
__probe.expect(__counted === '5', 'tookToken', () => ({ call: __call(null, 3), counter: __probe.show(__counted) }));
__probe.expect(!__stale.threw, 'staleThrew', () => ({ call: __call(null, 3), error: { code: __stale.threw } }));
const __now = await __lab.store.read(__K);
__probe.expect(__now === 'sent with token 5', 'staleOverwrote', () => ({ call: __call('sent with token 3', 3), value: __probe.show(__now) }));
__probe.expect(__stale.said === false, 'staleNotFalse', () => ({ call: __call(null, 3), value: __probe.show(__stale.said) }));

const __newer = await __write('sent with token 6', 6);
__probe.expect(!__newer.threw && __newer.said === true, 'newerRefused', () => ({
  call: __call(null, 6),
  answer: __newer.threw ? __probe.say('anError', { error: { code: __newer.threw } }) : __probe.show(__newer.said),
}));

// The second time round: the same grant writes again with token 6. The store refuses a token it has already
// accepted, so the value is not recorded, and the answer must say so, whatever fencedWrite() remembers of token 6.
const __again = await __write('sent again with token 6', 6);
const __kept = await __lab.store.read(__K);
__probe.expect(!__again.threw && __again.said === false, 'sameTokenNotFalse', () => ({
  call: __call('sent again with token 6', 6),
  answer: __again.threw ? __probe.say('anError', { error: { code: __again.threw } }) : __probe.show(__again.said),
  value: __probe.show(__kept),
}));
__counter.disconnect();
