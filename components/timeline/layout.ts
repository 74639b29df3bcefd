/**
 * History → timeline: one lane per client with its intervals (acquire
 * attempts, lock holds, critical sections, pauses, stops at the breakpoint) and point markers
 * (extensions, releases, crashes, store writes), plus markers that cross
 * every lane (nemesis operations, node state changes, scenario steps).
 *
 * Pure and O(events): the canvas view redraws from this on every frame, the
 * text alternative lists it, and tests/unit/timeline-layout.test.ts checks it
 * on hand-written histories.
 */
import { isRecovery } from '@/lib/faults/catalogue';
import type { HistoryEvent, LockVote } from '@/lib/history';
import { LockOpReader, type LockOp } from '@/lib/lock-ops/acquires';
import { StopReader, type StopOp } from '@/lib/lock-ops/stops';
import { ENGLISH_LAYOUT_WORDS, type LayoutWords } from './layout-words';

/** `pause`: paused by a fault; `breakpoint`: frozen while the run stood at the learner's breakpoint (never a fault). */
export type IntervalKind = 'attempt' | 'hold' | 'section' | 'pause' | 'breakpoint';

export interface LaneInterval {
  kind: IntervalKind;
  from: number;
  /** End on the lab clock; for an open interval, the layout's end time. */
  to: number;
  /** Still going when the history (or the cursor) ends. */
  open: boolean;
  /** How it ended, in a word: "released", "crashed", "expired", "acquired", "failed", "resumed", "elapsed" (a timed pause's time ran out while the client stood at a breakpoint), "exited", "outvoted" (a hand-written hold a late answer left without a majority), "replaced"… */
  end: string | null;
  /** The seqs of the events that opened and closed it. */
  seqFrom: number;
  seqTo: number | null;
  /** Words for tooltips and the text alternative. */
  label: string;
  /** attempt: the votes of its outcome, and the quorum. */
  votes?: LockVote[];
  quorum?: number;
  /** hold: when the holder may no longer assume it holds the lock (acquire + validity, moved by extensions). */
  validUntil?: number | null;
  /** hold: what is locked. */
  resources?: string[];
}

export type MarkerKind =
  | 'extended'
  | 'extend-failed'
  | 'released'
  | 'release-failed'
  | 'crash'
  | 'error'
  | 'exit'
  | 'start'
  | 'skew'
  | 'write-accepted'
  | 'write-rejected';

export interface LaneMarker {
  kind: MarkerKind;
  t: number;
  seq: number;
  label: string;
}

export interface Lane {
  client: number;
  label: string;
  intervals: LaneInterval[];
  markers: LaneMarker[];
}

export type GlobalMarkerKind = 'nemesis' | 'nemesis-refused' | 'node' | 'scenario';
export type Tone = 'fault' | 'recovery' | 'info';

export interface GlobalMarker {
  kind: GlobalMarkerKind;
  t: number;
  seq: number;
  label: string;
  tone: Tone;
}

export interface TimelineLayout {
  lanes: Lane[];
  markers: GlobalMarker[];
  /** Lab time of the first and last event (or the given bounds). */
  t0: number;
  t1: number;
  events: number;
}

export interface LayoutOptions {
  /** Lanes for clients 1..clients even before they do anything. */
  clients?: number;
  /** Close open intervals here (the live "now" or the time-travel cursor); defaults to the last event's time. */
  endT?: number;
  /** The labels' words (English when left out). */
  words?: LayoutWords;
}


interface Open {
  lane: Lane;
  interval: LaneInterval;
}

/** What the layout folds as it walks the history. */
class LayoutBuilder {
  constructor(private readonly words: LayoutWords = ENGLISH_LAYOUT_WORDS) {}

  readonly lanes = new Map<number, Lane>();
  readonly markers: GlobalMarker[] = [];
  /** Open intervals by kind and key (client:token, client:job:execution, client). */
  private readonly open = new Map<string, Open>();
  /** What a lock acquire, hold and release is: read once for every view (lib/lock-ops). */
  private readonly ops = new LockOpReader();
  /** When a client stood still, and whether a fault or the breakpoint stopped it: read once too (lib/lock-ops/stops.ts). */
  private readonly stops = new StopReader();
  /** Which hand-written acquire gave each open raw hold: only its own later refusal takes it back. */
  private readonly rawGivenBy = new Map<string, number>();

  lane(client: number): Lane {
    let lane = this.lanes.get(client);
    if (!lane) {
      lane = { client, label: this.words.lane(client), intervals: [], markers: [] };
      this.lanes.set(client, lane);
    }
    return lane;
  }

  private start(key: string, client: number, interval: Pick<LaneInterval, 'kind' | 'from' | 'seqFrom' | 'label' | 'resources'>): LaneInterval {
    const lane = this.lane(client);
    // One object literal of a fixed shape (no spread): this runs once per interval, 10,000s of times per layout.
    const full: LaneInterval = {
      kind: interval.kind,
      from: interval.from,
      to: interval.from,
      open: true,
      end: null,
      seqFrom: interval.seqFrom,
      seqTo: null,
      label: interval.label,
    };
    if (interval.resources) full.resources = interval.resources;
    lane.intervals.push(full);
    this.open.set(key, { lane, interval: full });
    return full;
  }

  private close(key: string, t: number, seq: number, end: string): LaneInterval | null {
    const found = this.open.get(key);
    if (!found) return null;
    this.open.delete(key);
    found.interval.to = Math.max(found.interval.from, t);
    found.interval.open = false;
    found.interval.end = end;
    found.interval.seqTo = seq;
    return found.interval;
  }

  private get(key: string): LaneInterval | null {
    return this.open.get(key)?.interval ?? null;
  }

  /** A client that crashed, exited or failed can act no more: cut everything it had open. */
  private closeClient(client: number, t: number, seq: number, end: string): void {
    const prefix = `:${client}:`;
    for (const key of [...this.open.keys()]) {
      if (key.includes(prefix)) this.close(key, t, seq, end);
    }
  }

  private marker(client: number, kind: MarkerKind, t: number, seq: number, label: string): void {
    this.lane(client).markers.push({ kind, t, seq, label });
  }

  observe(e: HistoryEvent): void {
    // An indexed loop: this runs for every event, and most hand back the same empty list.
    const ops = this.ops.observe(e);
    for (let i = 0; i < ops.length; i++) this.observeLockOp(ops[i]!);
    const stops = this.stops.observe(e);
    for (let i = 0; i < stops.length; i++) this.observeStop(stops[i]!);
    switch (e.type) {
      case 'job': {
        const key = `section:${e.client}:${e.job}#${e.execution}`;
        if (e.phase === 'enter') {
          this.start(key, e.client, { kind: 'section', from: e.t, seqFrom: e.seq, label: this.words.section(e.job, e.execution) });
        } else {
          this.close(key, e.t, e.seq, 'exited');
        }
        break;
      }
      case 'client':
        this.observeClient(e);
        break;
      case 'store':
        this.marker(
          e.client,
          e.accepted ? 'write-accepted' : 'write-rejected',
          e.t,
          e.seq,
          this.words.write(e.accepted, e.key, e.token, e.reason),
        );
        break;
      case 'redis':
        if (e.phase === 'invoke') this.lane(e.client);
        break;
      case 'nemesis':
        if (e.phase === 'ok') {
          this.markers.push({ kind: 'nemesis', t: e.t, seq: e.seq, label: this.words.done(e.op, e.target, e.detail, e.detailWords), tone: isRecovery(e.op) ? 'recovery' : 'fault' });
        } else if (e.phase === 'fail') {
          this.markers.push({ kind: 'nemesis-refused', t: e.t, seq: e.seq, label: this.words.refused(e.op, e.target, e.detail, e.detailWords), tone: 'info' });
        }
        break;
      case 'node':
        this.markers.push({
          kind: 'node',
          t: e.t,
          seq: e.seq,
          label: this.words.node(e.node, e.state, e.reason, e.reasonWords),
          tone: e.state === 'up' ? 'recovery' : 'fault',
        });
        break;
      case 'guard':
        // The lab stopped a script or restarted a node: a lab-wide mark like a node's own change.
        this.markers.push({ kind: 'node', t: e.t, seq: e.seq, label: this.words.guard(e.node, e.detail, e.detailWords), tone: 'info' });
        break;
      case 'scenario':
        this.markers.push({ kind: 'scenario', t: e.t, seq: e.seq, label: this.words.scenario(e.detail || e.step, e.detail ? e.detailWords : undefined), tone: 'info' });
        break;
      case 'console':
        // Client 0 is the lab itself speaking (a limit, a run ended early): no client's lane.
        if (e.client > 0) this.lane(e.client);
        break;
    }
  }

  /** Attempts and holds, from the lock operations (the module's and hand-written ones alike). */
  private observeLockOp(op: LockOp): void {
    switch (op.kind) {
      case 'retried':
        this.close(`attempt:${op.acquire.client}:${op.acquire.token}`, op.t, op.seq, 'retried');
        break;
      case 'attempt':
        // A hand-written acquire shows as its hold; an answer without an attempt of its own, at its decision.
        if (op.acquire.source === 'lock-event' && op.acquire.asked) {
          this.start(`attempt:${op.acquire.client}:${op.acquire.token}`, op.acquire.client, {
            kind: 'attempt',
            from: op.t,
            seqFrom: op.seq,
            label: this.words.acquiring(op.acquire.resources.join(', '), op.acquire.attempt),
          });
        }
        break;
      case 'decided':
        if (op.event) this.moduleDecided(op.event, op.validUntil);
        else if (op.outcome === 'granted') this.rawHold(op.acquire.id, op.acquire.client, op.acquire.key, op.node ?? 0, op.t, op.seq, op.validUntil);
        else if (this.rawGivenBy.get(`hold:${op.acquire.client}:raw:${op.acquire.key}`) === op.acquire.id) {
          // A late answer left it without a majority: the hold it gave is taken back.
          this.close(`hold:${op.acquire.client}:raw:${op.acquire.key}`, op.t, op.seq, 'outvoted');
        }
        break;
      case 'extended': {
        const e = op.event;
        const hold = this.get(e ? `hold:${op.client}:${op.token}` : `hold:${op.client}:raw:${op.key}`);
        if (hold && op.validUntil !== null) hold.validUntil = op.validUntil;
        this.marker(op.client, 'extended', op.t, op.seq, this.words.extended(e ? e.resources.join(', ') : op.key, op.ttlMs));
        break;
      }
      case 'extend-failed': {
        const e = op.event;
        this.marker(op.client, 'extend-failed', op.t, op.seq, this.words.extendFailed(e ? e.resources.join(', ') : op.key, e?.detail));
        break;
      }
      case 'released':
        this.released(op);
        break;
      default:
        break;
    }
  }

  private moduleDecided(e: Extract<HistoryEvent, { type: 'lock' }>, validUntil: number | null): void {
    const attemptKey = `attempt:${e.client}:${e.token}`;
    const what = e.resources.join(', ');
    const ok = e.event === 'acquired';
    const votes = e.votes ?? [];
    const attempt = this.close(attemptKey, e.t, e.seq, e.event) ??
      // An acquired without an attempt (a lesson's own helper): a zero-length attempt still shows the votes.
      this.closeNew(attemptKey, e.client, e.t, e.seq, e.event, this.words.acquiring(what, undefined));
    attempt.votes = votes;
    if (e.quorum !== undefined) attempt.quorum = e.quorum;
    const tally = votes.length > 0 ? { granted: votes.filter((v) => v.ok).length, total: votes.length, quorum: e.quorum } : null;
    attempt.label = this.words.attempted(ok, what, tally);
    if (!ok) return;
    const hold = this.start(`hold:${e.client}:${e.token}`, e.client, { kind: 'hold', from: e.t, seqFrom: e.seq, label: this.words.holding(what), resources: e.resources });
    hold.validUntil = validUntil;
  }

  /** A hand-written lock granted (lessons 1–3, or by most nodes in lesson 5): a hold until its release. */
  private rawHold(acquireId: number, client: number, key: string, node: number, t: number, seq: number, validUntil: number | null): void {
    const holdKey = `hold:${client}:raw:${key}`;
    // Decided again (a late node answered) while still held: the hold goes on.
    if (this.get(holdKey) && this.rawGivenBy.get(holdKey) === acquireId) return;
    // The client took the key again: its earlier hold ends here (as the measurements end it).
    this.close(holdKey, t, seq, 'replaced');
    this.rawGivenBy.set(holdKey, acquireId);
    const hold = this.start(holdKey, client, { kind: 'hold', from: t, seqFrom: seq, label: this.words.holdingRaw(key, node), resources: [key] });
    hold.validUntil = validUntil;
  }

  private released(op: Extract<LockOp, { kind: 'released' }>): void {
    const e = op.event;
    if (e === null) {
      this.close(`hold:${op.client}:raw:${op.key}`, op.t, op.seq, 'released');
      this.marker(op.client, 'released', op.t, op.seq, this.words.releasedRaw(op.key, op.command));
      return;
    }
    const what = e.resources.join(', ');
    this.close(`hold:${e.client}:${e.token}`, e.t, e.seq, op.failed ? 'release failed' : 'released');
    if (op.failed) this.marker(e.client, 'release-failed', e.t, e.seq, this.words.releaseFailed(what, e.detail));
    else this.marker(e.client, 'released', e.t, e.seq, this.words.released(what));
  }

  private closeNew(key: string, client: number, t: number, seq: number, end: string, label: string): LaneInterval {
    this.start(key, client, { kind: 'attempt', from: t, seqFrom: seq, label });
    return this.close(key, t, seq, end) as LaneInterval;
  }

  /** A pause (a fault's) and a stop at the breakpoint (the run's own) are two kinds of interval; a client may have both. */
  private observeStop(op: StopOp): void {
    const key = `${op.stop}:${op.client}:`;
    if (op.kind === 'went-on') {
      this.close(key, op.t, op.seq, op.how);
      return;
    }
    this.start(key, op.client, {
      kind: op.stop,
      from: op.t,
      seqFrom: op.seq,
      label: op.stop === 'breakpoint' ? this.words.atBreakpoint() : this.words.paused(op.durationMs),
    });
  }

  private observeClient(e: Extract<HistoryEvent, { type: 'client' }>): void {
    switch (e.event) {
      case 'start':
        this.marker(e.client, 'start', e.t, e.seq, this.words.started());
        break;
      case 'skew':
        this.marker(e.client, 'skew', e.t, e.seq, this.words.skewed(e.durationMs));
        break;
      case 'crash':
      case 'exit':
      case 'error': {
        const word = e.event === 'crash' ? 'crashed' : e.event === 'exit' ? 'exited' : 'failed';
        this.closeClient(e.client, e.t, e.seq, word);
        this.marker(e.client, e.event, e.t, e.seq, this.words.ended(e.event, e.detail));
        break;
      }
    }
  }

}

export function layoutTimeline(history: readonly HistoryEvent[], options: LayoutOptions = {}): TimelineLayout {
  return new IncrementalLayout().layout(history, options);
}

/**
 * The layout of a history that grows, folding only the events it has not seen. A live run re-lays its timeline
 * for every batch and every tick of the live clock (10 a second); from scratch that is the whole history each
 * time (about 5 ms at 10,000 events on this machine), folded once it is the new events alone. Anything but
 * growth (another run, time travel back, other words or lanes) starts again from the first event.
 */
export class IncrementalLayout {
  private builder: LayoutBuilder | null = null;
  private seen = 0;
  private first: HistoryEvent | undefined;
  private last: HistoryEvent | undefined;
  private clients: number | undefined;
  private words: LayoutWords | undefined;

  layout(history: readonly HistoryEvent[], options: LayoutOptions = {}): TimelineLayout {
    let builder = this.builder;
    if (builder === null || !this.grows(history, options)) {
      builder = new LayoutBuilder(options.words);
      for (let c = 1; c <= (options.clients ?? 0); c++) builder.lane(c);
      this.builder = builder;
      this.seen = 0;
      this.clients = options.clients;
      this.words = options.words;
    }
    for (let i = this.seen; i < history.length; i++) builder.observe(history[i]!);
    this.seen = history.length;
    this.first = history[0];
    this.last = history[history.length - 1];
    const t0 = this.first?.t ?? 0;
    const t1 = Math.max(options.endT ?? this.last?.t ?? t0, t0);
    // A picture the fold never changes afterwards: intervals still open are copies ending at t1 (the fold's own
    // stay open, to be closed by a later event), and the lists are copies, since the fold keeps adding to them.
    const end = (interval: LaneInterval): LaneInterval => (interval.open ? { ...interval, to: Math.max(interval.from, t1) } : interval);
    const lanes = [...builder.lanes.values()].sort((a, b) => a.client - b.client).map((lane) => ({ ...lane, intervals: lane.intervals.map(end), markers: lane.markers.slice() }));
    // Intervals were pushed in start order, markers in time order: both already sorted.
    return { lanes, markers: builder.markers.slice(), t0, t1, events: history.length };
  }

  /** The same history with events added at its end, laid out with the same lanes and words. */
  private grows(history: readonly HistoryEvent[], options: LayoutOptions): boolean {
    if (options.clients !== this.clients || options.words !== this.words || history.length < this.seen) return false;
    return this.seen === 0 || (history[0] === this.first && history[this.seen - 1] === this.last);
  }
}
