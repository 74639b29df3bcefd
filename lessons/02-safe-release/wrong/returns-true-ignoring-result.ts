// Wrong: runs the release script but returns true whatever it answered.
// When our lock had already expired (and perhaps passed to another worker) the
// script rightly deletes nothing, yet release() reports success: the caller is
// told it released its lock when it had lost it mid-work (late-release shows it).

async function release(key: string, token: string): Promise<boolean> {
  await redis.eval(RELEASE, 1, key, token);
  return true;
}
