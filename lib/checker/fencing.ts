/**
 * Fencing, on the protected store.
 * - A fenced write (with a token) accepted although its token is not greater
 *   than the highest the store had accepted — by the store's own account
 *   (`highest`) or by ours, per key — is a stale write: a violation.
 * - A fenced write rejected is fencing doing its job: "saved by fencing".
 * - An unfenced write (token null) is stale when it lands after another
 *   client wrote the same key from a *later* session: a lost update. A
 *   client's session starts when it entered the critical section it writes
 *   from (else when it took its lock; else the write stands alone).
 */
import type { StoreWriteEvent } from '../history';
import type { CheckResult, CounterExample, SavedByFencing } from './types';
import { clientLabel, quote, sortedUnique, timeWords, type TimeWords } from './format';

interface Writer {
  client: number;
  sessionStart: number;
  seq: number;
  t: number;
}

/** The two latest-starting sessions of distinct clients that wrote a key. */
interface KeyWriters {
  best: Writer | null;
  second: Writer | null;
}

const KEPT_SEQS = 20;

export class Fencing {
  private readonly highestByKey = new Map<string, { token: number; seq: number; client: number }>();
  private readonly writers = new Map<string, KeyWriters>();
  private first: CounterExample | null = null;
  private violations = 0;
  writes = 0;
  readonly saved: SavedByFencing = { count: 0, seqs: [] };

  constructor(private readonly formatTime: TimeWords = timeWords()) {}

  observe(event: StoreWriteEvent, sessionStart: number): void {
    this.writes += 1;
    if (event.token === null) {
      if (event.accepted) this.observeUnfenced(event, sessionStart);
      return;
    }
    if (!event.accepted) {
      this.saved.count += 1;
      if (this.saved.seqs.length < KEPT_SEQS) this.saved.seqs.push(event.seq);
      return;
    }
    const ours = this.highestByKey.get(event.key);
    const stale = (event.highest !== null && event.token <= event.highest) || (ours !== undefined && event.token <= ours.token);
    if (stale) {
      const highest = Math.max(event.highest ?? -Infinity, ours?.token ?? -Infinity);
      this.violate({
        check: 'fencing',
        message: `The store accepted ${clientLabel(event.client)}'s write to ${quote(event.key)} at ${this.formatTime(event.t)} with token ${event.token}, although it had already accepted token ${highest}: a stale write got through.`,
        seqs: sortedUnique([event.seq, ...(ours ? [ours.seq] : [])]),
        window: { from: event.t, to: event.t },
        clients: sortedUnique([event.client, ...(ours ? [ours.client] : [])]),
      });
    }
    if (ours === undefined || event.token > ours.token) this.highestByKey.set(event.key, { token: event.token, seq: event.seq, client: event.client });
  }

  result(forced: boolean): CheckResult {
    const applicable = this.writes > 0;
    const notes: string[] = [];
    if (this.saved.count > 0) {
      notes.push(`${this.saved.count} stale write${this.saved.count === 1 ? ' was' : 's were'} rejected by the fenced store: fencing saved it.`);
    }
    const base = { check: 'fencing' as const, applicable: applicable || forced, violations: this.violations, indeterminate: 0, notes };
    if (this.first) return { ...base, valid: 'violated', summary: `violated: ${this.violations} stale write${this.violations === 1 ? '' : 's'} accepted`, counterExample: this.first };
    if (!applicable) return { ...base, valid: forced ? 'unknown' : 'held', summary: 'no store write', counterExample: null };
    return { ...base, valid: 'held', summary: `held: ${this.writes} store write${this.writes === 1 ? '' : 's'}, none stale`, counterExample: null };
  }

  private observeUnfenced(event: StoreWriteEvent, sessionStart: number): void {
    const writers = this.writers.get(event.key) ?? { best: null, second: null };
    const other = writers.best && writers.best.client !== event.client ? writers.best : writers.second;
    if (other && other.sessionStart > sessionStart) {
      this.violate({
        check: 'fencing',
        message:
          `${clientLabel(event.client)} wrote ${quote(event.key)} at ${this.formatTime(event.t)} from a session that began at ${this.formatTime(sessionStart)}, ` +
          `after ${clientLabel(other.client)} had written it at ${this.formatTime(other.t)} from a later one (began ${this.formatTime(other.sessionStart)}): ` +
          `an unfenced stale write overwrote newer data. Pass the lock's fencing token with each write.`,
        seqs: sortedUnique([other.seq, event.seq]),
        window: { from: other.t, to: event.t },
        clients: sortedUnique([event.client, other.client]),
      });
    }
    this.writers.set(event.key, remember(writers, { client: event.client, sessionStart, seq: event.seq, t: event.t }));
  }

  private violate(counterExample: CounterExample): void {
    this.violations += 1;
    this.first ??= counterExample;
  }
}

function remember(writers: KeyWriters, writer: Writer): KeyWriters {
  const entries = [writers.best, writers.second, writer].filter((w): w is Writer => w !== null);
  // Keep each client's latest session only, then the two latest clients.
  const byClient = new Map<number, Writer>();
  for (const w of entries) {
    const seen = byClient.get(w.client);
    if (!seen || w.sessionStart > seen.sessionStart || (w.sessionStart === seen.sessionStart && w.seq > seen.seq)) byClient.set(w.client, w);
  }
  const top = [...byClient.values()].sort((x, y) => y.sessionStart - x.sessionStart);
  return { best: top[0] ?? null, second: top[1] ?? null };
}
