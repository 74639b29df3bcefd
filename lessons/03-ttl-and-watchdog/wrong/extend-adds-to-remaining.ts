// Wrong: extend() adds ttlMs to the time the lock has left (PTTL + ttlMs), instead of setting it to ttlMs from now.
// Every renewal stretches the lock further: after a few renewals a crashed holder's lock outlives it by far more than
// its TTL, and the others wait for it. A renewal resets the TTL to ttlMs; it never adds to it.

// Like the release: compare and act in one script, so we never extend a
// lock that has already passed to someone else.
const EXTEND = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  local left = redis.call('pttl', KEYS[1])
  return redis.call('pexpire', KEYS[1], left + tonumber(ARGV[2]))
else
  return 0
end`;
