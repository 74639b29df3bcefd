// Wrong: the script PERSISTs the key (removes its TTL) instead of resetting the TTL.
// The first renewal makes the lock permanent: if the holder then crashes, the
// lock never expires and nobody can reindex again. Later renewals find no TTL
// to remove (PERSIST answers 0), so the watchdog also wrongly reports the lock lost.

// Like the release: compare and act in one script, so we never extend a
// lock that has already passed to someone else.
const EXTEND = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('persist', KEYS[1])
else
  return 0
end`;
