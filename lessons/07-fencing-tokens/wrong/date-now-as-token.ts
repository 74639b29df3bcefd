// Wrong: uses Date.now() at grant time as the fencing token instead of the INCR counter.
// Each client reads its own clock: a client whose clock runs ahead (or jumped)
// gets larger tokens than later grants, and two grants in the same millisecond
// tie, so a stale holder can be accepted over the current one (clock skew shows it).

const token = Date.now();
