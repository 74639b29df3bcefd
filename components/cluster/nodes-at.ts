/**
 * The nodes as they were at a moment of the history: what the cards show
 * while the time-travel cursor is set (RaftScope's way: scrub, and every
 * node shows its state and keys at that moment). Pure, unit-tested in
 * tests/unit/nodes-at.test.ts.
 *
 * State, role and persistence come from the nodes' own history events;
 * keys from the checker's keyspace model (lib/checker/keyspace.ts), which
 * rebuilds what each node holds from the commands in the history — so keys
 * written before the history the tab keeps are not known, and a TTL counts
 * on the lab clock.
 */
import type { LockKeyView, NodeIntervention, NodeView } from '@/lib/cluster';
import type { HistoryEvent } from '@/lib/history';
import { Keyspace } from '@/lib/checker/keyspace';
import { clockJumpOf } from '@/lib/faults/catalogue';

/** A node at the moment: a NodeView (what the card draws) and each key's full TTL (its bar's length). */
export interface NodeMoment {
  node: NodeView;
  peaks: Record<string, { value: string | null; peakMs: number }>;
}

interface Past {
  state?: NodeView['state'];
  role?: NodeView['role'];
  persistence?: NodeView['persistence'];
  clockJumpMs: number;
  intervention: NodeIntervention | null;
}

/**
 * Replays a history up to a moment, and on from there when the next moment is
 * later in the same history (playback moves forward a frame at a time).
 */
export class NodesAt {
  private source: readonly HistoryEvent[] | null = null;
  private firstSeq = -1;
  private index = 0;
  private t = -Infinity;
  private keyspace = new Keyspace([]);
  private past = new Map<number, Past>();
  /** The last answer, given again while nothing before the moment changed (a live run appending after it). */
  private last: { t: number; nodes: readonly NodeView[]; moments: Record<number, NodeMoment> } | null = null;

  /** Each of `nodes` as it was at lab time `t` in `history` (sorted by seq, so by t). */
  at(history: readonly HistoryEvent[], t: number, nodes: readonly NodeView[]): Record<number, NodeMoment> {
    if (!this.canContinue(history, t)) this.restart(history);
    this.source = history;
    const from = this.index;
    while (this.index < history.length) {
      const event = history[this.index];
      if (event === undefined || event.t > t) break;
      this.apply(event);
      this.index++;
    }
    this.t = t;
    const last = this.last;
    if (last && last.t === t && last.nodes === nodes && this.index === from) return last.moments;
    const moments: Record<number, NodeMoment> = {};
    for (const live of nodes) moments[live.id] = this.moment(live, t);
    this.last = { t, nodes, moments };
    return moments;
  }

  /** The same history (or it grew at its end), and a moment no earlier than the last one. */
  private canContinue(history: readonly HistoryEvent[], t: number): boolean {
    if (this.source === null || t < this.t) return false;
    if (history === this.source) return true;
    return history[0]?.seq === this.firstSeq && history.length >= this.index;
  }

  private restart(history: readonly HistoryEvent[]): void {
    this.firstSeq = history[0]?.seq ?? -1;
    this.index = 0;
    this.t = -Infinity;
    this.keyspace = new Keyspace([]);
    this.past = new Map();
    this.last = null;
  }

  private pastOf(node: number): Past {
    let past = this.past.get(node);
    if (!past) {
      past = { clockJumpMs: 0, intervention: null };
      this.past.set(node, past);
    }
    return past;
  }

  private apply(event: HistoryEvent): void {
    this.keyspace.observe(event);
    if (event.type === 'node') {
      const past = this.pastOf(event.node);
      past.state = event.state;
      past.role = event.role;
      past.persistence = event.persistence;
    } else if (event.type === 'guard') {
      this.pastOf(event.node).intervention = { t: event.t, action: event.action, cause: event.cause, text: event.detail, ...(event.detailWords ? { words: event.detailWords } : {}) };
    } else if (event.type === 'nemesis' && event.phase === 'ok' && event.node !== undefined) {
      this.pastOf(event.node).clockJumpMs += clockJumpOf(event.op, event.args);
    }
  }

  private moment(live: NodeView, t: number): NodeMoment {
    const past = this.past.get(live.id);
    // A node with no event yet was as the lab made it: up, in the role and persistence it has.
    const state = past?.state ?? 'up';
    const keys: LockKeyView[] = [];
    const peaks: NodeMoment['peaks'] = {};
    if (state !== 'down') {
      for (const [key, entry] of this.keyspace.entriesOf(live.id)) {
        if (entry.expiresAt <= t) continue;
        const noExpiry = entry.expiresAt === Infinity;
        keys.push({ key, value: entry.value, pttl: noExpiry ? -1 : Math.round(entry.expiresAt - t), sampledAt: t });
        if (!noExpiry) peaks[key] = { value: entry.value, peakMs: Math.max(1, entry.expiresAt - entry.setT) };
      }
      keys.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    }
    return {
      node: {
        ...live,
        state,
        role: past?.role ?? live.role,
        persistence: past?.persistence ?? live.persistence,
        restartDueAt: null,
        keys,
        keysTruncated: false,
        clockJumpMs: past?.clockJumpMs ?? 0,
        intervention: past?.intervention ?? null,
      },
      peaks,
    };
  }
}
