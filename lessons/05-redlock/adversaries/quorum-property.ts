// quorum(n) is a property of n alone: the smallest number of votes two clients can never both collect.
// The most telling failure is reported: an unsafe n first, then a fraction, then a quorum nobody can reach.
const __quorum = __probe.fn('quorum', typeof quorum === 'undefined' ? undefined : quorum);
const __answers = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({ n, q: __quorum(n), right: Math.floor(n / 2) + 1 }));
const __said = (a) => __probe.say('returned', { call: { code: `quorum(${a.n})` }, q: __probe.show(a.q) });
const __notNumber = __answers.find((a) => typeof a.q !== 'number' || !Number.isFinite(a.q));
if (__notNumber) __probe.fail('notNumber', { said: __said(__notNumber) });
const __unsafe = __answers.find((a) => 2 * Math.ceil(a.q) <= a.n);
if (__unsafe && __unsafe.q <= 0) __probe.fail('noVote', { said: __said(__unsafe), right: __unsafe.right });
if (__unsafe) {
  const __k = Math.ceil(__unsafe.q);
  __probe.fail('notMajority', { said: __said(__unsafe), k: __k, n: __unsafe.n, right: __unsafe.right });
}
const __fraction = __answers.find((a) => !Number.isInteger(a.q));
if (__fraction) __probe.fail('fraction', { said: __said(__fraction), right: __fraction.right });
const __wrong = __answers.find((a) => a.q !== a.right);
if (__wrong && __wrong.q > __wrong.n) __probe.fail('unreachable', { said: __said(__wrong), n: __wrong.n, q: __wrong.q, right: __wrong.right });
if (__wrong) __probe.fail('tooMany', { said: __said(__wrong), down: __wrong.n - __wrong.q + 1, n: __wrong.n, right: __wrong.right });
