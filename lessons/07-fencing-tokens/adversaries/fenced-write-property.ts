// fencedWrite(key, value, token) against the fenced store: a newer token is accepted, an older one refused — and
// a refusal is an answer (false), not a crash.
const __fencedWrite = __probe.fn('fencedWrite', typeof fencedWrite === 'undefined' ? undefined : fencedWrite);
const __K = 'probe-invoice';
const __key = __probe.show(__K);
async function __write(value, token) {
  try {
    return { said: await __probe.call('fencedWrite', () => __fencedWrite(__K, value, token)) };
  } catch (error) {
    return { threw: error && error.code ? `${error.code}: ${error.message}` : String(error) };
  }
}
const __first = await __write('sent with token 5', 5);
__probe.expect(!__first.threw, 'firstThrew', () => ({ key: __key, error: { code: __first.threw } }));
__probe.expect(__first.said === true, 'firstNotTrue', () => ({ key: __key, value: __probe.show(__first.said) }));
__probe.expect((await __lab.store.read(__K)) === 'sent with token 5', 'firstNotStored', { key: __key });

const __stale = await __write('sent with token 3', 3);
__probe.expect(!__stale.threw, 'staleThrew', () => ({ key: __key, error: { code: __stale.threw } }));
const __now = await __lab.store.read(__K);
__probe.expect(__now === 'sent with token 5', 'staleOverwrote', () => ({ key: __key, value: __probe.show(__now) }));
__probe.expect(__stale.said === false, 'staleNotFalse', () => ({ key: __key, value: __probe.show(__stale.said) }));

const __newer = await __write('sent with token 6', 6);
__probe.expect(!__newer.threw && __newer.said === true, 'newerRefused', () => ({
  key: __key,
  answer: __newer.threw ? __probe.say('anError', { error: { code: __newer.threw } }) : __probe.show(__newer.said),
}));
