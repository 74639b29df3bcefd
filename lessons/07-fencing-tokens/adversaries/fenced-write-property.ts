// fencedWrite(key, value, token) against the fenced store: a newer token is accepted, an older one refused — and
// a refusal is an answer (false), not a crash.
const __fencedWrite = __probe.fn('fencedWrite', typeof fencedWrite === 'undefined' ? undefined : fencedWrite);
const __K = 'probe-invoice';
async function __write(value, token) {
  try {
    return { said: await __probe.call('fencedWrite', () => __fencedWrite(__K, value, token)) };
  } catch (error) {
    return { threw: error && error.code ? `${error.code}: ${error.message}` : String(error) };
  }
}
const __first = await __write('sent with token 5', 5);
__probe.expect(!__first.threw, () => `fencedWrite('${__K}', …, 5) on a fresh store threw ${__first.threw}.`);
__probe.expect(__first.said === true, () => `fencedWrite('${__K}', …, 5) on a fresh store returned ${__probe.show(__first.said)}: the store accepted it, so it must return true.`);
__probe.expect((await __lab.store.read(__K)) === 'sent with token 5', `fencedWrite('${__K}', 'sent with token 5', 5) returned true, but the store does not hold that value.`);

const __stale = await __write('sent with token 3', 3);
__probe.expect(
  !__stale.threw,
  () => `fencedWrite('${__K}', …, 3) after token 5 threw ${__stale.threw}: a refused write is the store doing its job. Catch the EFENCED error and return false, so the worker stops cleanly instead of crashing.`,
);
const __now = await __lab.store.read(__K);
__probe.expect(
  __now === 'sent with token 5',
  `fencedWrite('${__K}', 'sent with token 3', 3) after token 5 was accepted overwrote the newer value (the store now holds ${__probe.show(__now)}): the write did not carry its token, so the store could not refuse it. Pass the token to lab.store.write(key, value, token).`,
);
__probe.expect(
  __stale.said === false,
  () => `fencedWrite('${__K}', …, 3) after token 5 returned ${__probe.show(__stale.said)}: the store refused it, so it must return false — a caller told "true" believes the invoice was recorded.`,
);

const __newer = await __write('sent with token 6', 6);
__probe.expect(!__newer.threw && __newer.said === true, () => `fencedWrite('${__K}', …, 6) after token 5 returned ${__newer.threw ? `an error (${__newer.threw})` : __probe.show(__newer.said)}: a newer token must be accepted.`);
