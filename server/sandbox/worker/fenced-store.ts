/**
 * The protected resource shared by a run's clients: a store that rejects a
 * fencing token not greater than the highest it has accepted (Kleppmann's
 * fencing), with the same error text as the Norwegian course lesson's. A write without a
 * token is accepted as is, so the checker can show unfenced writes out of order.
 */
export interface StoreWriteResult {
  accepted: boolean;
  highest: number | null;
  reason?: string;
}

export class FencedStore {
  private highest: number | null = null;
  private readonly data = new Map<string, string>();

  write(key: string, value: string, token: number | null): StoreWriteResult {
    const before = this.highest;
    if (token !== null) {
      if (!Number.isFinite(token)) return { accepted: false, highest: before, reason: `fenced: token ${token} is not a number` };
      if (before !== null && token <= before) return { accepted: false, highest: before, reason: `fenced: token ${token} <= ${before}` };
      this.highest = token;
    }
    this.data.set(key, value);
    return { accepted: true, highest: before };
  }

  read(key: string): string | null {
    return this.data.get(key) ?? null;
  }
}
