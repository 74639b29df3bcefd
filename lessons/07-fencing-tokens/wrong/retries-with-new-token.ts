// Wrong: when the store refuses the write (EFENCED), takes a new token from the counter and writes again.
// The refusal means a newer grant exists: this worker lost its lock. A fresh token is larger than the current
// holder's, so the retry is accepted and the stale holder overwrites the invoice the current holder recorded.
// A refused write is the answer: return false.

async function fencedWrite(key: string, value: string, token: number): Promise<boolean> {
  try {
    await lab.store.write(key, value, token);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code !== 'EFENCED') throw error;
    // Our token was too old: take a fresh one and try once more.
    const fresh = Number(await counter.incr('fencing:invoice-2024-06'));
    try {
      await lab.store.write(key, value, fresh);
      return true;
    } catch {
      return false;
    }
  }
}
