/**
 * History → timeline: one lane per client with its intervals (acquire
 * attempts, lock holds, critical sections, pauses) and point markers
 * (extensions, releases, crashes, store writes), plus markers that cross
 * every lane (nemesis operations, node state changes, scenario steps).
 *
 * Pure and O(events): the canvas view redraws from this on every frame, the
 * text alternative lists it, and tests/unit/timeline-layout.test.ts checks it
 * on hand-written histories.
 */
import { isRecovery } from '@/lib/faults/catalogue';
import type { HistoryEvent, LockVote } from '@/lib/history';
import { ENGLISH_LAYOUT_WORDS, type LayoutWords } from './layout-words';

export type IntervalKind = 'attempt' | 'hold' | 'section' | 'pause';

export interface LaneInterval {
  kind: IntervalKind;
  from: number;
  /** End on the lab clock; for an open interval, the layout's end time. */
  to: number;
  /** Still going when the history (or the cursor) ends. */
  open: boolean;
  /** How it ended, in a word: "released", "crashed", "expired", "acquired", "failed", "resumed", "exited"… */
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
  /** Lock keys some LockEvent named: raw SET NX on them is left to the LockEvents. */
  private readonly lockResources = new Set<string>();
  /** Raw `SET key value NX` commands in flight, by opId. */
  private readonly rawSets = new Map<number, { key: string; ttlMs: number | null; token: string }>();
  /** Raw releases (DEL / EVAL naming a key) in flight, by opId. */
  private readonly rawReleases = new Map<number, string>();

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
    switch (e.type) {
      case 'lock':
        this.observeLock(e);
        break;
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
        this.observeRedis(e);
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

  private observeLock(e: Extract<HistoryEvent, { type: 'lock' }>): void {
    for (const r of e.resources) this.lockResources.add(r);
    const attemptKey = `attempt:${e.client}:${e.token}`;
    const holdKey = `hold:${e.client}:${e.token}`;
    const what = e.resources.join(', ');
    switch (e.event) {
      case 'attempt':
        this.close(attemptKey, e.t, e.seq, 'retried');
        this.start(attemptKey, e.client, {
          kind: 'attempt',
          from: e.t,
          seqFrom: e.seq,
          label: this.words.acquiring(what, e.attempt),
        });
        break;
      case 'acquired':
      case 'failed': {
        const ok = e.event === 'acquired';
        const votes = e.votes ?? [];
        const attempt = this.close(attemptKey, e.t, e.seq, e.event) ??
          // An acquired without an attempt (a lesson's own helper): a zero-length attempt still shows the votes.
          this.closeNew(attemptKey, e.client, e.t, e.seq, e.event, this.words.acquiring(what, undefined));
        attempt.votes = votes;
        if (e.quorum !== undefined) attempt.quorum = e.quorum;
        const tally = votes.length > 0 ? { granted: votes.filter((v) => v.ok).length, total: votes.length, quorum: e.quorum } : null;
        attempt.label = this.words.attempted(ok, what, tally);
        if (ok) {
          const hold = this.start(holdKey, e.client, {
            kind: 'hold',
            from: e.t,
            seqFrom: e.seq,
            label: this.words.holding(what),
            resources: e.resources,
          });
          hold.validUntil = e.validityMs !== undefined ? e.t + e.validityMs : e.ttlMs !== undefined ? e.t + e.ttlMs : null;
        }
        break;
      }
      case 'extended': {
        const hold = this.get(holdKey);
        if (hold && e.validityMs !== undefined) hold.validUntil = e.t + e.validityMs;
        else if (hold && e.ttlMs !== undefined) hold.validUntil = e.t + e.ttlMs;
        this.marker(e.client, 'extended', e.t, e.seq, this.words.extended(what, e.ttlMs));
        break;
      }
      case 'extend-failed':
        this.marker(e.client, 'extend-failed', e.t, e.seq, this.words.extendFailed(what, e.detail));
        break;
      case 'released':
        this.close(holdKey, e.t, e.seq, 'released');
        this.marker(e.client, 'released', e.t, e.seq, this.words.released(what));
        break;
      case 'release-failed':
        this.close(holdKey, e.t, e.seq, 'release failed');
        this.marker(e.client, 'release-failed', e.t, e.seq, this.words.releaseFailed(what, e.detail));
        break;
    }
  }

  private closeNew(key: string, client: number, t: number, seq: number, end: string, label: string): LaneInterval {
    this.start(key, client, { kind: 'attempt', from: t, seqFrom: seq, label });
    return this.close(key, t, seq, end) as LaneInterval;
  }

  private observeClient(e: Extract<HistoryEvent, { type: 'client' }>): void {
    const pauseKey = `pause:${e.client}:`;
    switch (e.event) {
      case 'start':
        this.marker(e.client, 'start', e.t, e.seq, this.words.started());
        break;
      case 'pause':
        this.start(pauseKey, e.client, {
          kind: 'pause',
          from: e.t,
          seqFrom: e.seq,
          label: this.words.paused(e.durationMs),
        });
        break;
      case 'resume':
        this.close(pauseKey, e.t, e.seq, 'resumed');
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

  /** Single-node locks written with raw commands (lessons 1–3): SET … NX opens a hold, DEL or a release script closes it. */
  private observeRedis(e: Extract<HistoryEvent, { type: 'redis' }>): void {
    if (e.phase === 'invoke') this.lane(e.client);
    const command = e.command.toLowerCase();
    if (e.phase === 'invoke') {
      if (command === 'set') {
        const [key, value, ...rest] = e.args;
        const flags = rest.map((a) => a.toUpperCase());
        if (key !== undefined && flags.includes('NX') && !this.lockResources.has(key)) {
          this.rawSets.set(e.opId, { key, token: value ?? '', ttlMs: rawTtl(flags) });
        }
      } else if (command === 'del' || command === 'unlink' || command === 'eval' || command === 'evalsha') {
        const keys = command.startsWith('eval') ? e.args.slice(2, 2 + Number(e.args[1] ?? 0)) : e.args;
        const key = keys.find((k) => this.get(`hold:${e.client}:raw:${k}`) !== null);
        if (key !== undefined) this.rawReleases.set(e.opId, key);
      }
      return;
    }
    const set = this.rawSets.get(e.opId);
    if (set) {
      this.rawSets.delete(e.opId);
      if (e.phase === 'ok' && e.reply === 'OK') {
        const hold = this.start(`hold:${e.client}:raw:${set.key}`, e.client, {
          kind: 'hold',
          from: e.t,
          seqFrom: e.seq,
          label: this.words.holdingRaw(set.key, e.node),
          resources: [set.key],
        });
        hold.validUntil = set.ttlMs === null ? null : e.t + set.ttlMs;
      }
      return;
    }
    const released = this.rawReleases.get(e.opId);
    if (released !== undefined) {
      this.rawReleases.delete(e.opId);
      if (e.phase === 'ok') {
        this.close(`hold:${e.client}:raw:${released}`, e.t, e.seq, 'released');
        this.marker(e.client, 'released', e.t, e.seq, this.words.releasedRaw(released, e.command.toUpperCase()));
      }
    }
  }

  /** Intervals still open end at `endT`, marked open. */
  finish(endT: number): void {
    for (const { interval } of this.open.values()) interval.to = Math.max(interval.from, endT);
  }
}

function rawTtl(flags: string[]): number | null {
  const px = flags.indexOf('PX');
  if (px >= 0) return Number(flags[px + 1]) || null;
  const ex = flags.indexOf('EX');
  if (ex >= 0) return (Number(flags[ex + 1]) || 0) * 1000 || null;
  return null;
}

export function layoutTimeline(history: readonly HistoryEvent[], options: LayoutOptions = {}): TimelineLayout {
  const builder = new LayoutBuilder(options.words);
  for (let c = 1; c <= (options.clients ?? 0); c++) builder.lane(c);
  for (const event of history) builder.observe(event);
  const first = history[0];
  const last = history[history.length - 1];
  const t0 = first?.t ?? 0;
  const t1 = Math.max(options.endT ?? last?.t ?? t0, t0);
  builder.finish(t1);
  const lanes = [...builder.lanes.values()].sort((a, b) => a.client - b.client);
  // Intervals were pushed in start order, markers in time order: both already sorted.
  return { lanes, markers: builder.markers, t0, t1, events: history.length };
}

