// Wrong: the Lua script checks only that the key EXISTS, not that it holds our token.
// Atomic, but no safer than a plain DEL: once our lock has expired and another
// worker took it, the key exists, so our script deletes the other worker's lock
// and a third worker can enter beside it (the late-release interleaving).

// Check and delete in one Lua script: Redis runs a script without
// interleaving other commands, so nobody can take the key between the two.
const RELEASE = `
if redis.call('exists', KEYS[1]) == 1 then
  return redis.call('del', KEYS[1])
else
  return 0
end`;
