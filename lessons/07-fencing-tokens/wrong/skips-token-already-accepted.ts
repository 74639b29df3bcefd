// Wrong: remembers the tokens the store accepted and answers a second write with one of them from memory (true).
// It takes the second write for a retry that already went through; but the store refuses a token it has
// already accepted, so the new value is never recorded while the worker is told it was.

const acceptedTokens = new Set<number>();

async function fencedWrite(key: string, value: string, token: number): Promise<boolean> {
  if (acceptedTokens.has(token)) return true;
  try {
    await lab.store.write(key, value, token);
    acceptedTokens.add(token);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'EFENCED') return false;
    throw error;
  }
}
