// quorum(n) is a property of n alone: the smallest number of votes two clients can never both collect.
// The most telling failure is reported: an unsafe n first, then a fraction, then a quorum nobody can reach.
const __quorum = __probe.fn('quorum', typeof quorum === 'undefined' ? undefined : quorum);
const __answers = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({ n, q: __quorum(n), right: Math.floor(n / 2) + 1 }));
const __said = (a) => `quorum(${a.n}) returned ${__probe.show(a.q)}`;
const __notNumber = __answers.find((a) => typeof a.q !== 'number' || !Number.isFinite(a.q));
if (__notNumber) __probe.fail(`${__said(__notNumber)}: a number of votes is expected.`);
const __unsafe = __answers.find((a) => 2 * Math.ceil(a.q) <= a.n);
if (__unsafe && __unsafe.q <= 0) __probe.fail(`${__said(__unsafe)}: a client with no vote at all would hold the lock — every client at once. A quorum must be a strict majority: ⌊n/2⌋ + 1 = ${__unsafe.right}.`);
if (__unsafe) {
  const __k = Math.ceil(__unsafe.q);
  __probe.fail(`${__said(__unsafe)}: two clients could each collect ${__k} of ${__unsafe.n} votes from different nodes and both hold the lock. A quorum must be a strict majority: ⌊n/2⌋ + 1 = ${__unsafe.right}.`);
}
const __fraction = __answers.find((a) => !Number.isInteger(a.q));
if (__fraction) __probe.fail(`${__said(__fraction)}, which is not a whole number of votes: the quorum is ⌊n/2⌋ + 1 = ${__fraction.right}.`);
const __wrong = __answers.find((a) => a.q !== a.right);
if (__wrong) {
  __probe.fail(
    __wrong.q > __wrong.n
      ? `${__said(__wrong)}: ${__wrong.n} node${__wrong.n === 1 ? '' : 's'} can never give ${__wrong.q} votes, so nobody could ever take the lock. A quorum is ⌊n/2⌋ + 1 = ${__wrong.right}.`
      : `${__said(__wrong)}: more than a majority is safe but needlessly fragile — with ${__wrong.n - __wrong.q + 1} of ${__wrong.n} nodes down the lock is lost although a majority is still up. A quorum is ⌊n/2⌋ + 1 = ${__wrong.right}.`,
  );
}
