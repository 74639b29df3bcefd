// Wrong: catches every error and returns true anyway, so a refused (EFENCED) write counts as recorded.
// The store still refuses the stale writer, but the worker is told its write was
// accepted: it logs "invoice recorded" for an invoice it never recorded, and a
// store failure is hidden the same way (pause-fenced: Client 1's refused write).

// The resource checks the token, so safety no longer depends on timing:
// a stale writer is refused however long it slept.
async function fencedWrite(key: string, value: string, token: number): Promise<boolean> {
  try {
    await lab.store.write(key, value, token);
  } catch {
    // a refused write is not worth crashing the worker over
  }
  return true;
}
