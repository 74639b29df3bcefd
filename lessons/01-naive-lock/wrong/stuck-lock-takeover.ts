// Wrong: takes over a lock that looks stuck (more than half its TTL gone) with a plain SET.

async function acquire(key: string, ttlMs: number): Promise<string | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
  if (ok === 'OK') return token;
  // The lock looks stuck: more than half its TTL is gone, so its holder must be dead. Take it over.
  const left = Number(await redis.pttl(key));
  if (left >= 0 && left < ttlMs / 2) {
    await redis.set(key, token, 'PX', ttlMs);
    return token;
  }
  return null;
}
