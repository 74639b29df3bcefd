// Wrong: the script renews with EXPIRE, passing ttlMs (milliseconds) where EXPIRE takes seconds.
// The first renewal turns the 900 ms lock into a 900-second one: if the holder
// then crashes, the lock stays for 15 minutes instead of under a second and no
// other worker can reindex (crash-watchdog shows it).

// Like the release: compare and act in one script, so we never extend a
// lock that has already passed to someone else.
const EXTEND = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('expire', KEYS[1], ARGV[2])
else
  return 0
end`;
