// Wrong: GET, compare the token in the client, then DEL: two commands, not one script.
// The lock can expire and pass to another worker between our GET and our DEL:
// the GET still saw our token, so the DEL deletes the new holder's lock and a
// third worker can enter beside it (an expiry right after our GET shows it).

// Compare, then delete: remove the key only if it still holds our token.
async function release(key: string, token: string): Promise<boolean> {
  const holder = await redis.get(key);
  if (holder !== token) return false;
  const deleted = await redis.del(key);
  return deleted === 1;
}
