/**
 * The browser's picture of one lab, and the pure functions that fold server
 * messages into it. Kept free of React and socket.io so the folding can be
 * unit-tested on hand-written messages (tests/unit/store-*.test.ts).
 */
import type { LabSnapshot, LinkView, NodeView, ReplicationView, Topology } from '@/lib/cluster';
import type { HistoryEvent } from '@/lib/history';
import { nextBreakpointStop, type BreakpointStop } from './breakpoint-state';
import { eventBytes, TAB_HISTORY_BYTES, TAB_HISTORY_EVENTS } from '@/lib/history-size';
import type { HistoryBatch, LinksDiff, NodesDiff } from '@/lib/protocol';

/** The most history the tab keeps, in events and in bytes (why: lib/history-size); the oldest go first. */
export const MAX_HISTORY = TAB_HISTORY_EVENTS;
export const MAX_HISTORY_BYTES = TAB_HISTORY_BYTES;

/** Largest TTL seen for the current holder of a key: the full length of its TTL bar. */
export interface TtlPeak {
  value: string | null;
  peakMs: number;
}

export interface LabData {
  labId: string | null;
  topology: Topology | null;
  clients: number;
  /** Node ids in display order; a separate array so a card list re-renders only when nodes come or go. */
  nodeIds: number[];
  nodes: Record<number, NodeView>;
  links: LinkView[];
  replication: ReplicationView | null;
  /**
   * Local clock (performance.now()) minus the lab clock, in ms. A message
   * can only arrive late, never early, so the smallest offset seen is the
   * best estimate; it lets TTL bars count down between samples.
   */
  clockOffsetMs: number | null;
  /** Per node, per key. */
  ttlPeaks: Record<number, Record<string, TtlPeak>>;
  history: HistoryEvent[];
  /** Estimated bytes of `history` (lib/history-size), kept under MAX_HISTORY_BYTES. */
  historyBytes: number;
  /** The seq the next history event should have. */
  nextSeq: number;
  /** True once events were missed (a batch started past nextSeq), so the history shown is incomplete. */
  historyGap: boolean;
  /** The first history seq of this page's view (the snapshot's `historyFrom`). */
  historyFrom: number;
  /** Lab clock when this page's view of the lab began (its first snapshot); see `viewOrigin`. */
  viewStartT: number | null;
  /** The run stands at the learner's breakpoint (breakpoint-state.ts); null while it goes. */
  breakpointStop: BreakpointStop | null;
}

export const emptyLabData = (): LabData => ({
  labId: null,
  topology: null,
  clients: 0,
  nodeIds: [],
  nodes: {},
  links: [],
  replication: null,
  clockOffsetMs: null,
  ttlPeaks: {},
  history: [],
  historyBytes: 0,
  nextSeq: 0,
  historyGap: false,
  historyFrom: 0,
  viewStartT: null,
  breakpointStop: null,
});

/**
 * Whether `snapshot` starts a new view of the lab: another lab, or the same lab
 * rebuilt for this page (its history starts later). Nothing of the view before
 * — its run, verdict, cursor — belongs to this one.
 */
export function startsNewView(data: Pick<LabData, 'labId' | 'historyFrom'>, snapshot: LabSnapshot): boolean {
  return data.labId !== snapshot.labId || (snapshot.historyFrom ?? 0) > data.historyFrom;
}

/**
 * The lab-clock time this page's view counts from before any run: when the
 * page first saw the lab, or its first event if the view (a reload) holds
 * older ones. Never the lab's own start, which for a lab taken from the warm
 * reserve or kept from another page was minutes before the learner arrived.
 */
export function viewOrigin(data: Pick<LabData, 'viewStartT' | 'history'>): number {
  const first = data.history[0]?.t;
  if (data.viewStartT === null) return first ?? 0;
  return first === undefined ? data.viewStartT : Math.min(first, data.viewStartT);
}

function peaksFor(node: NodeView, previous: Record<string, TtlPeak> | undefined): Record<string, TtlPeak> {
  const peaks: Record<string, TtlPeak> = {};
  for (const key of node.keys) {
    if (key.pttl < 0) continue; // no expiry: nothing to count down
    const before = previous?.[key.key];
    const sameHolder = before !== undefined && before.value === key.value;
    peaks[key.key] = { value: key.value, peakMs: sameHolder ? Math.max(before.peakMs, key.pttl) : key.pttl };
  }
  return peaks;
}

function nextOffset(current: number | null, localNow: number, labNow: number): number {
  const offset = localNow - labNow;
  return current === null ? offset : Math.min(current, offset);
}

/** A full snapshot replaces the cluster; history is kept when it is the same lab (a re-join). */
export function reduceSnapshot(data: LabData, snapshot: LabSnapshot, localNow: number): LabData {
  const sameLab = data.labId === snapshot.labId;
  const from = snapshot.historyFrom ?? 0;
  const newView = startsNewView(data, snapshot);
  const sorted = [...snapshot.nodes].sort((a, b) => a.id - b.id);
  const nodes: Record<number, NodeView> = {};
  const ttlPeaks: Record<number, Record<string, TtlPeak>> = {};
  for (const node of sorted) {
    nodes[node.id] = node;
    ttlPeaks[node.id] = peaksFor(node, sameLab ? data.ttlPeaks[node.id] : undefined);
  }
  return {
    labId: snapshot.labId,
    topology: snapshot.topology,
    clients: snapshot.clients,
    nodeIds: sorted.map((n) => n.id),
    nodes,
    links: snapshot.links,
    replication: snapshot.replication,
    clockOffsetMs: nextOffset(sameLab ? data.clockOffsetMs : null, localNow, snapshot.now),
    ttlPeaks,
    // `historyFrom`: the lab was rebuilt for this page; what came before belongs to the page the tab left.
    history: sameLab ? data.history.filter((e) => e.seq >= from) : [],
    historyBytes: sameLab ? data.historyBytes : 0,
    nextSeq: sameLab ? Math.max(data.nextSeq, from) : from,
    historyGap: sameLab ? data.historyGap : false,
    // A snapshot pushed during the view (a run restoring the lab) has no `historyFrom`: the view goes on.
    historyFrom: sameLab ? Math.max(data.historyFrom, from) : from,
    viewStartT: newView ? snapshot.now : data.viewStartT,
    breakpointStop: sameLab && !newView ? data.breakpointStop : null,
  };
}

/** Replaces the nodes named in the diff; untouched nodes keep their object identity (cheap re-renders). */
export function reduceNodesDiff(data: LabData, diff: NodesDiff, localNow: number): LabData {
  if (diff.labId !== data.labId) return data;
  const nodes = { ...data.nodes };
  const ttlPeaks = { ...data.ttlPeaks };
  let nodeIds = data.nodeIds;
  for (const node of diff.nodes) {
    if (!(node.id in nodes)) nodeIds = [...nodeIds, node.id].sort((a, b) => a - b);
    nodes[node.id] = node;
    ttlPeaks[node.id] = peaksFor(node, data.ttlPeaks[node.id]);
  }
  return { ...data, nodes, nodeIds, ttlPeaks, clockOffsetMs: nextOffset(data.clockOffsetMs, localNow, diff.now) };
}

export function reduceLinksDiff(data: LabData, diff: LinksDiff): LabData {
  if (diff.labId !== data.labId) return data;
  const byPair = new Map(data.links.map((l) => [`${l.client}:${l.node}`, l] as const));
  for (const link of diff.links) byPair.set(`${link.client}:${link.node}`, link);
  const links = [...byPair.values()].sort((a, b) => a.client - b.client || a.node - b.node);
  return { ...data, links, replication: diff.replication };
}

/**
 * Appends a batch in seq order. Events already held (a re-sent batch after a
 * re-join) are skipped; a batch that starts past the next expected seq is
 * still shown, but the gap is remembered so views can say so.
 */
export function reduceHistory(data: LabData, batch: HistoryBatch, maxEvents = MAX_HISTORY, maxBytes = MAX_HISTORY_BYTES): LabData {
  if (batch.labId !== data.labId) return data;
  const fresh = batch.events.filter((e) => e.seq >= data.nextSeq);
  if (fresh.length === 0) return data;
  const first = fresh[0];
  const gap = first !== undefined && first.seq > data.nextSeq;
  let history = data.history.concat(fresh);
  let bytes = data.historyBytes;
  for (const event of fresh) bytes += eventBytes(event);
  // Oldest first, which is the older runs' events first; the newest event always stays.
  let drop = Math.max(0, history.length - maxEvents);
  for (let i = 0; i < drop; i++) bytes -= eventBytes(history[i] as HistoryEvent);
  while (bytes > maxBytes && drop < history.length - 1) bytes -= eventBytes(history[drop++] as HistoryEvent);
  if (drop > 0) history = history.slice(drop);
  const last = fresh[fresh.length - 1];
  return {
    ...data,
    history,
    historyBytes: bytes,
    nextSeq: last === undefined ? data.nextSeq : last.seq + 1,
    historyGap: data.historyGap || gap,
    breakpointStop: nextBreakpointStop(data.breakpointStop, fresh),
  };
}

/** The lab clock now, estimated from the local clock; null before the first snapshot. */
export function labNow(data: Pick<LabData, 'clockOffsetMs'>, localNow: number): number | null {
  return data.clockOffsetMs === null ? null : localNow - data.clockOffsetMs;
}

/** What is left of a TTL at lab time `now`, never below zero; -1 stays -1 (no expiry). */
export function remainingTtl(key: { pttl: number; sampledAt: number }, now: number | null): number {
  if (key.pttl < 0) return key.pttl;
  if (now === null) return key.pttl;
  return Math.max(0, key.pttl - Math.max(0, now - key.sampledAt));
}
