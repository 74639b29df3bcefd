// Wrong: the script passes ARGV[1] (the token) to PEXPIRE instead of ARGV[2] (the TTL).
// PEXPIRE rejects a UUID as its time ("value is not an integer"), so every
// renewal fails with an error, the watchdog only logs it, and the 900 ms lock
// expires under the 1.8 s reindex: another worker takes it mid-job (watchdog).

// Like the release: compare and act in one script, so we never extend a
// lock that has already passed to someone else.
const EXTEND = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[1])
else
  return 0
end`;
