// Wrong: release() is a plain DEL; it never checks that the key still holds our token.
// If our lock expired during the slow upload and another worker took it, our
// DEL deletes that worker's lock; a third worker then takes the key while the
// second is still in its critical section (the late-release interleaving).

// Delete the lock and report whether there was one to delete.
async function release(key: string, token: string): Promise<boolean> {
  const deleted = await redis.del(key);
  return deleted === 1;
}
