// Wrong: the script checks that the key holds our token and answers 1, but never deletes it.
// The lock is freed only when its TTL runs out: after every release the key stays
// for the rest of the TTL, the other workers wait for it, and release() reports
// "released my lock" for a lock that is still held.

// Compare in one Lua script, so the answer is about our own lock; the
// key's TTL removes it.
const RELEASE = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return 1
else
  return 0
end`;
