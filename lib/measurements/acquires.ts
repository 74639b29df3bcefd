/**
 * Acquires and holds, for the measurements: a fold of the run's lock operations (lib/lock-ops/acquires.ts says what
 * an acquire is, for the timeline, the votes view and here alike: the redlock module's attempts, and hand-written
 * `SET key value NX`, `SETNX` and acquire scripts, one value sent to several nodes being one acquire).
 *
 * A retry is a new acquire, so the latency is the cost of asking once (its round trips to every node), not the retry
 * delay between asks. An attempt is *granted*, *failed* (refused: another client held the lock, or too few nodes said
 * yes), *timed out* (a node did not answer in time: the command's timeout, or an answer of unknown outcome), or
 * *unanswered* (its client crashed or ended first, or the history ends before the answer). Only answered attempts
 * have a latency.
 *
 * A hold runs from a granted acquire to its release, the end of its validity (TTL, or Redlock's validity, moved by
 * extensions), or its client's end, whichever comes first.
 */
import type { HistoryEvent } from '../history';
import { LockOpReader, type Acquire as LockAcquire, type AcquireOutcome, type LockOp } from '../lock-ops/acquires';

export type { AcquireOutcome } from '../lock-ops/acquires';
export type AcquireSource = 'lock-event' | 'set-nx';

export interface Acquire {
  client: number;
  source: AcquireSource;
  /** Lab clock: asked, and answered (null: never answered). */
  from: number;
  to: number | null;
  outcome: AcquireOutcome;
  /** to − from for an answered attempt that had a start of its own; null otherwise. */
  latencyMs: number | null;
}

export interface Hold {
  client: number;
  from: number;
  to: number;
}

export interface AcquireLog {
  acquires: Acquire[];
  holds: Hold[];
}

interface OpenHold {
  hold: Hold;
  /** When the holder may no longer assume it holds the lock (null: no TTL). */
  validUntil: number | null;
}

/** Folds the lock operations of a run (lib/lock-ops) into acquires and the holds they gave. */
class AcquireFold {
  readonly acquires: Acquire[] = [];
  readonly holds: Hold[] = [];
  private readonly byId = new Map<number, Acquire>();
  /** Open holds: the module's by `client|token`, hand-written ones by `raw|client|key` (a new grant of the key replaces the last). */
  private readonly open = new Map<string, OpenHold>();
  private readonly given = new Map<number, Hold>();

  apply(op: LockOp): void {
    switch (op.kind) {
      case 'attempt': {
        const acquire: Acquire = { client: op.acquire.client, source: op.acquire.source === 'lock-event' ? 'lock-event' : 'set-nx', from: op.t, to: null, outcome: 'unanswered', latencyMs: null };
        this.acquires.push(acquire);
        this.byId.set(op.acquire.id, acquire);
        return;
      }
      case 'retried':
        this.answer(op.acquire, op.t, 'unanswered');
        return;
      case 'decided':
        this.decided(op.acquire, op.outcome, op.t, op.validUntil);
        return;
      case 'extended': {
        const open = this.open.get(op.event ? `${op.client}|${op.token}` : `raw|${op.client}|${op.key}`);
        if (open && op.validUntil !== null) open.validUntil = op.validUntil;
        return;
      }
      case 'released':
        if (op.acquire !== null) this.closeHold(holdKey(op.acquire), op.t);
        else if (op.token !== null) this.closeHold(`${op.client}|${op.token}`, op.t);
        return;
      case 'ended':
        for (const acquire of op.unanswered) this.answer(acquire, op.t, 'unanswered');
        // A client that crashed or ended holds nothing it could use.
        for (const [key, open] of [...this.open]) if (open.hold.client === op.client) this.closeHold(key, op.t);
        return;
      default:
        return;
    }
  }

  private answer(lock: LockAcquire, t: number, outcome: AcquireOutcome): void {
    const acquire = this.byId.get(lock.id);
    if (!acquire) return;
    acquire.to = t;
    acquire.outcome = outcome;
    // An answer without an attempt of its own (a helper that only reports the result) has no latency to speak of.
    acquire.latencyMs = outcome !== 'unanswered' && lock.asked ? Math.max(0, t - acquire.from) : null;
  }

  private decided(lock: LockAcquire, outcome: Exclude<AcquireOutcome, 'unanswered'>, t: number, validUntil: number | null): void {
    this.answer(lock, t, outcome);
    const key = holdKey(lock);
    const given = this.given.get(lock.id);
    if (outcome === 'granted' && !given) {
      this.closeHold(key, t);
      const hold: Hold = { client: lock.client, from: t, to: t };
      this.holds.push(hold);
      this.open.set(key, { hold, validUntil });
      // The module decides once; a hand-written acquire is decided again when a late node answers.
      if (lock.source === 'commands') this.given.set(lock.id, hold);
    } else if (outcome !== 'granted' && given) {
      // A later answer left it without a majority: the hold it gave is taken back.
      if (this.open.get(key)?.hold === given) this.open.delete(key);
      given.to = given.from;
      this.given.delete(lock.id);
    }
  }

  closeHold(key: string, t: number): void {
    const open = this.open.get(key);
    if (!open) return;
    this.open.delete(key);
    open.hold.to = Math.max(open.hold.from, open.validUntil === null ? t : Math.min(t, open.validUntil));
  }

  finish(t: number): void {
    for (const key of [...this.open.keys()]) this.closeHold(key, t);
  }
}

function holdKey(lock: LockAcquire): string {
  return lock.source === 'commands' ? `raw|${lock.client}|${lock.key}` : `${lock.client}|${lock.token}`;
}

/** Walks a run's events once (O(events)): attempts, their answers and the holds they gave. */
export function readAcquires(history: readonly HistoryEvent[], endT?: number): AcquireLog {
  const reader = new LockOpReader();
  const fold = new AcquireFold();
  for (const e of history) for (const op of reader.observe(e)) fold.apply(op);
  fold.finish(endT ?? history[history.length - 1]?.t ?? 0);
  // Attempts still open stay unanswered (to: null): the history ended before their answer.
  return { acquires: fold.acquires, holds: fold.holds };
}

/** Merged, sorted, non-overlapping intervals: the time some client held a lock. */
export function heldIntervals(holds: readonly Hold[]): Array<{ from: number; to: number }> {
  const sorted = holds.filter((h) => h.to > h.from).map((h) => ({ from: h.from, to: h.to })).sort((a, b) => a.from - b.from);
  const merged: Array<{ from: number; to: number }> = [];
  for (const h of sorted) {
    const last = merged[merged.length - 1];
    if (last && h.from <= last.to) last.to = Math.max(last.to, h.to);
    else merged.push(h);
  }
  return merged;
}
