// Wrong: checks the token against the highest one this process has seen, then writes unfenced.
// Each worker only knows its own tokens, so the check never refuses anything,
// and the store gets no token to check: a worker paused past its validity still
// overwrites the invoice the current holder recorded (pause-fenced shows it).

// Refuse a stale token ourselves before writing: a token lower than the
// highest we have written with is stale.
let highestSeen = 0;

async function fencedWrite(key: string, value: string, token: number): Promise<boolean> {
  if (token < highestSeen) return false;
  highestSeen = token;
  try {
    await lab.store.write(key, value);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'EFENCED') return false;
    throw error;
  }
}
