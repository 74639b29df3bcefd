/**
 * Fencing, on the protected store.
 * - A fenced write (with a token) accepted although its token is not greater
 *   than the highest the store had accepted — by the store's own account
 *   (`highest`) or by ours, per key — is a stale write: a violation.
 * - A fenced write rejected is fencing doing its job: "saved by fencing".
 * - Any accepted write, fenced or not, is stale when it lands after another
 *   client wrote the same key from a *later* session: a lost update. For an
 *   unfenced write that is the missing fence; for a fenced one, the store
 *   took it because its token did not grow with the grants (a client id, or
 *   Date.now() on a clock that was set back, as a token): a growing number is
 *   not enough, it must grow with every grant of the lock.
 *
 * - Tokens must follow the grants: a write whose grant came later than
 *   another grant's, with a token not greater than the one that grant wrote
 *   with, means the tokens went backwards (a token source restarted empty, a
 *   token taken from another counter while it was down). Accepted or refused,
 *   it is a violation: refused, the current holder is locked out of the store;
 *   accepted, the store's order no longer follows the grants.
 *
 * A session starts at the writer's grant (the lock it holds), else at its
 * entry into the critical section it writes from, so writes compare in grant
 * order; a write with neither stands alone (its own time).
 */
import type { StoreWriteEvent } from '../history';
import type { CheckResult, CounterExample, SavedByFencing } from './types';
import { client as clientValue, code, say, sortedUnique, timeWords, type TimeWords } from './format';
import { notes as notesOf, summary } from './said';
import { words, type Words } from '../words';

/** Where a write's session began, and what began it. */
export interface Session {
  start: number;
  from: 'grant' | 'section' | 'write';
}

/**
 * The session a store write belongs to: the grant of the lock the writer
 * holds (not released) when there is one, since fencing tokens must follow
 * grants. A section's entry is only a stand-in: it lags its grant by however
 * long the client works first (and a busy server stretches that), so two
 * clients' entries can swap while their grants do not; and a section that
 * wraps its own acquire (`run(async () => …)`) begins before its grant.
 */
export function writeSession(sectionStart: number | null, grantT: number | null, writeT: number): Session {
  if (grantT !== null) return { start: grantT, from: 'grant' };
  if (sectionStart !== null) return { start: sectionStart, from: 'section' };
  return { start: writeT, from: 'write' };
}

interface Writer {
  client: number;
  session: Session;
  seq: number;
  t: number;
}

/** The two latest-starting sessions of distinct clients that wrote a key. */
interface KeyWriters {
  best: Writer | null;
  second: Writer | null;
}

const KEPT_SEQS = 20;

/** A grant that wrote a key with a token: its highest token, and the write that carried it. */
interface GrantToken {
  client: number;
  start: number;
  token: number;
  seq: number;
  t: number;
}

/** Grants remembered per key for the order of tokens: a run has few; a long loop's oldest are let go. */
const KEPT_GRANTS = 256;

export class Fencing {
  private readonly highestByKey = new Map<string, { token: number; seq: number; client: number }>();
  private readonly writers = new Map<string, KeyWriters>();
  private readonly grantsByKey = new Map<string, GrantToken[]>();
  private first: CounterExample | null = null;
  private violations = 0;
  /** Of the violations, writes whose token went backwards against the grants (the rest are stale writes accepted). */
  private backwards = 0;
  writes = 0;
  readonly saved: SavedByFencing = { count: 0, seqs: [] };

  constructor(private readonly formatTime: TimeWords = timeWords()) {}

  observe(event: StoreWriteEvent, session: Session): void {
    this.writes += 1;
    const outOfOrder = event.token !== null && session.from === 'grant' ? this.grantOutOfOrder(event, event.token, session.start) : null;
    if (!event.accepted) {
      if (outOfOrder && event.token !== null) this.violateOrder(this.tokensBackwards(event, event.token, session.start, outOfOrder));
      else if (event.token !== null) {
        this.saved.count += 1;
        if (this.saved.seqs.length < KEPT_SEQS) this.saved.seqs.push(event.seq);
      }
      return;
    }
    const writers = this.writers.get(event.key) ?? { best: null, second: null };
    const newer = newerWriter(writers, event.client, session.start);
    if (event.token === null) {
      if (newer) this.violate(this.unfencedStale(event, session.start, newer));
    } else if (!this.observeToken(event, event.token)) {
      // The token looked fine to the store, yet the write comes from an older grant than one already written.
      if (newer) this.violate(this.grantOrderStale(event, event.token, session, newer));
      else if (outOfOrder) this.violateOrder(this.tokensBackwards(event, event.token, session.start, outOfOrder));
    }
    this.writers.set(event.key, remember(writers, { client: event.client, session, seq: event.seq, t: event.t }));
  }

  /**
   * Another grant of the key whose token disagrees with the grant order: granted earlier with a token not smaller
   * than this one, or later with one not greater. The grant is remembered (with its highest token) either way.
   */
  private grantOutOfOrder(event: StoreWriteEvent, token: number, start: number): GrantToken | null {
    const grants = this.grantsByKey.get(event.key) ?? [];
    let found: GrantToken | null = null;
    let own: GrantToken | null = null;
    for (const g of grants) {
      if (g.client === event.client && g.start === start) own = g;
      else if (!found && ((g.start < start && g.token >= token) || (g.start > start && g.token <= token))) found = g;
    }
    if (own) {
      if (token > own.token) Object.assign(own, { token, seq: event.seq, t: event.t });
    } else {
      grants.push({ client: event.client, start, token, seq: event.seq, t: event.t });
      if (grants.length > KEPT_GRANTS) grants.shift();
      this.grantsByKey.set(event.key, grants);
    }
    return found;
  }

  result(forced: boolean): CheckResult {
    const applicable = this.writes > 0;
    const notes: Words[] = [];
    if (this.saved.count > 0) notes.push(words('checker.fencing.noteSaved', { n: this.saved.count }));
    const base = { check: 'fencing' as const, applicable: applicable || forced, violations: this.violations, indeterminate: 0, ...notesOf(notes) };
    if (this.first) {
      const stale = this.violations - this.backwards;
      const said = stale > 0 ? summary('checker.fencing.summaryViolated', { n: stale }) : summary('checker.fencing.summaryBackwards', { n: this.backwards });
      return { ...base, valid: 'violated', ...said, counterExample: this.first };
    }
    if (!applicable) return { ...base, valid: forced ? 'unknown' : 'held', ...summary('checker.fencing.summaryNone'), counterExample: null };
    return { ...base, valid: 'held', ...summary('checker.fencing.summaryHeld', { n: this.writes }), counterExample: null };
  }

  /** The token comparison: true when it already proved the write stale (and said so). */
  private observeToken(event: StoreWriteEvent, token: number): boolean {
    const ours = this.highestByKey.get(event.key);
    const stale = (event.highest !== null && token <= event.highest) || (ours !== undefined && token <= ours.token);
    if (stale) {
      const highest = Math.max(event.highest ?? -Infinity, ours?.token ?? -Infinity);
      this.violate({
        check: 'fencing',
        ...say('checker.fencing.tokenNotNewer', { client: clientValue(event.client), key: code(event.key), at: this.formatTime(event.t), token: String(token), highest: String(highest) }),
        seqs: sortedUnique([event.seq, ...(ours ? [ours.seq] : [])]),
        window: { from: event.t, to: event.t },
        clients: sortedUnique([event.client, ...(ours ? [ours.client] : [])]),
      });
    }
    if (ours === undefined || token > ours.token) this.highestByKey.set(event.key, { token, seq: event.seq, client: event.client });
    return stale;
  }

  private unfencedStale(event: StoreWriteEvent, sessionStart: number, other: Writer): CounterExample {
    return {
      check: 'fencing',
      ...say('checker.fencing.unfenced', {
        client: clientValue(event.client),
        key: code(event.key),
        at: this.formatTime(event.t),
        start: this.formatTime(sessionStart),
        other: clientValue(other.client),
        otherAt: this.formatTime(other.t),
        otherStart: this.formatTime(other.session.start),
      }),
      seqs: sortedUnique([other.seq, event.seq]),
      window: { from: other.t, to: event.t },
      clients: sortedUnique([event.client, other.client]),
    };
  }

  private grantOrderStale(event: StoreWriteEvent, token: number, session: Session, other: Writer): CounterExample {
    return {
      check: 'fencing',
      ...say('checker.fencing.tokenNotGrowing', {
        client: clientValue(event.client),
        key: code(event.key),
        at: this.formatTime(event.t),
        token: String(token),
        origin: { words: words('checker.fencing.origin', { from: session.from, at: this.formatTime(session.start) }) },
        other: clientValue(other.client),
        otherAt: this.formatTime(other.t),
        laterOrigin: { words: words('checker.fencing.laterOrigin', { from: other.session.from, at: this.formatTime(other.session.start) }) },
      }),
      seqs: sortedUnique([other.seq, event.seq]),
      window: { from: other.t, to: event.t },
      clients: sortedUnique([event.client, other.client]),
    };
  }

  /** Names both grants: when each was granted, the token it wrote with, and when it wrote it. */
  private tokensBackwards(event: StoreWriteEvent, token: number, start: number, other: GrantToken): CounterExample {
    const current = { client: event.client, start, token, t: event.t, seq: event.seq };
    const [earlier, later] = other.start < start ? [other, current] : [current, other];
    return {
      check: 'fencing',
      ...say('checker.fencing.tokensBackwards', {
        key: code(event.key),
        earlier: clientValue(earlier.client),
        earlierGranted: this.formatTime(earlier.start),
        earlierToken: String(earlier.token),
        earlierAt: this.formatTime(earlier.t),
        later: clientValue(later.client),
        laterGranted: this.formatTime(later.start),
        laterToken: String(later.token),
        laterAt: this.formatTime(later.t),
      }),
      seqs: sortedUnique([other.seq, event.seq]),
      window: { from: Math.min(other.t, event.t), to: Math.max(other.t, event.t) },
      clients: sortedUnique([event.client, other.client]),
    };
  }

  private violateOrder(counterExample: CounterExample): void {
    this.backwards += 1;
    this.violate(counterExample);
  }

  private violate(counterExample: CounterExample): void {
    this.violations += 1;
    this.first ??= counterExample;
  }
}

/** Another client's write to the key from a session later than `sessionStart`, if any. */
function newerWriter(writers: KeyWriters, client: number, sessionStart: number): Writer | null {
  const other = writers.best && writers.best.client !== client ? writers.best : writers.second;
  return other && other.session.start > sessionStart ? other : null;
}

function remember(writers: KeyWriters, writer: Writer): KeyWriters {
  const entries = [writers.best, writers.second, writer].filter((w): w is Writer => w !== null);
  // Keep each client's latest session only, then the two latest clients.
  const byClient = new Map<number, Writer>();
  for (const w of entries) {
    const seen = byClient.get(w.client);
    if (!seen || w.session.start > seen.session.start || (w.session.start === seen.session.start && w.seq > seen.seq)) byClient.set(w.client, w);
  }
  const top = [...byClient.values()].sort((x, y) => y.session.start - x.session.start);
  return { best: top[0] ?? null, second: top[1] ?? null };
}
