// Wrong: takes the fencing token (INCR) before acquiring the lock, not after.
// Tokens then follow the INCRs, not the grants: A gets token 1 and B token 2,
// B wins the lock first and pauses past its validity, A takes the lock and
// writes with 1, then the stale B wakes and writes with 2: accepted.

// Take the token first, so it is ready the moment the lock is granted.
const early = Number(await counter.incr('fencing:invoice-2024-06'));
const lock = await redlock.acquire(['lock:invoice-2024-06'], TTL_MS);
const token = early;
