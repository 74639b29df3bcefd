// Wrong: fencedWrite() writes without the token (an unfenced write).
// The store cannot tell an old writer from a new one: a worker paused past its
// lock's validity wakes up and overwrites the invoice recorded by the current
// holder, although it fetched a token (pause-fenced shows it).

// Record the write in the store; a refused write (EFENCED) returns false.
async function fencedWrite(key: string, value: string, token: number): Promise<boolean> {
  try {
    await lab.store.write(key, value);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'EFENCED') return false;
    throw error;
  }
}
