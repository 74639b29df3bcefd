// Wrong: runs the extend script but returns true without looking at its result.
// When the key no longer holds our token (the lock expired and someone else
// took it) the script answers 0, yet extend() says it renewed: the watchdog
// never stops and the worker never learns that it lost the lock.

async function extend(key: string, token: string, ttlMs: number): Promise<boolean> {
  await redis.eval(EXTEND, 1, key, token, ttlMs);
  return true;
}
