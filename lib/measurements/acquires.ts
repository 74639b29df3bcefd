/**
 * What counts as an acquire, read from a run's history (the same rules as the timeline's attempt and hold intervals):
 *
 * - **The redlock module** (and any helper that writes `lock` events): one acquire is one *attempt*, from its `attempt`
 *   event to its `acquired` or `failed` event (same client, same token). A retry is a new acquire, so the latency is the
 *   cost of asking once (its round trips to every node), not the retry delay between asks.
 * - **Raw `SET key value NX [PX ms]`** on a key no `lock` event names (lessons 1–3): one acquire is one command, from its
 *   invoke to its reply. `OK` is granted, nil is refused. The same key and value sent by one client to several nodes
 *   while the first is still unanswered is a hand-written Redlock (lesson 5): one acquire, from the first command to
 *   the last answer, granted when most of the nodes asked said OK.
 *
 * An attempt is *granted*, *failed* (refused: another client held the lock, or too few nodes said yes), *timed out*
 * (a node did not answer in time: the command's timeout, or an answer of unknown outcome), or *unanswered* (its client
 * crashed or ended first, or the history ends before the answer). Only answered attempts have a latency.
 *
 * A hold runs from a granted acquire to its release, the end of its validity (TTL, or Redlock's validity, moved by
 * extensions), or its client's end, whichever comes first.
 */
import type { HistoryEvent, LockEvent, RedisCompleteEvent, RedisInvokeEvent } from '../history';

export type AcquireOutcome = 'granted' | 'failed' | 'timeout' | 'unanswered';
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

interface OpenAttempt {
  acquire: Acquire;
}

interface RawGroup {
  acquire: Acquire;
  key: string;
  groupKey: string;
  ttlMs: number | null;
  nodes: Set<number>;
  /** Commands not yet answered, and the answers so far. */
  pending: number;
  ok: number;
  timedOut: number;
  /** The hold a granted group gave (taken back if a later answer leaves it without a majority). */
  hold: Hold | null;
}

interface OpenHold {
  hold: Hold;
  /** When the holder may no longer assume it holds the lock (null: no TTL). */
  validUntil: number | null;
}

const TIMEOUT_WORDS = /timed?\s?out/i;

/** Walks a run's events once (O(events)): attempts, their answers and the holds they gave. */
export function readAcquires(history: readonly HistoryEvent[], endT?: number): AcquireLog {
  const acquires: Acquire[] = [];
  const holds: Hold[] = [];
  const attempts = new Map<string, OpenAttempt>();
  const openHolds = new Map<string, OpenHold>();
  const lockResources = new Set<string>();
  /** Raw SET NX in flight: by opId, each a member of a group (one acquire over one or more nodes). */
  const rawSets = new Map<number, RawGroup>();
  /** Groups still taking members, by client, key and value. */
  const openGroups = new Map<string, RawGroup>();
  const rawReleases = new Map<number, string>();

  const closeHold = (key: string, t: number) => {
    const open = openHolds.get(key);
    if (!open) return;
    openHolds.delete(key);
    open.hold.to = Math.max(open.hold.from, open.validUntil === null ? t : Math.min(t, open.validUntil));
  };
  const startHold = (key: string, client: number, t: number, validUntil: number | null): Hold => {
    closeHold(key, t);
    const hold: Hold = { client, from: t, to: t };
    holds.push(hold);
    openHolds.set(key, { hold, validUntil });
    return hold;
  };
  const newAcquire = (client: number, source: AcquireSource, from: number): Acquire => {
    const acquire: Acquire = { client, source, from, to: null, outcome: 'unanswered', latencyMs: null };
    acquires.push(acquire);
    return acquire;
  };
  const answer = (acquire: Acquire, t: number, outcome: AcquireOutcome) => {
    acquire.to = t;
    acquire.outcome = outcome;
    if (outcome !== 'unanswered') acquire.latencyMs = Math.max(0, t - acquire.from);
  };

  const onLock = (e: LockEvent) => {
    for (const r of e.resources) lockResources.add(r);
    const key = `${e.client}:${e.token}`;
    switch (e.event) {
      case 'attempt': {
        const previous = attempts.get(key);
        if (previous) answer(previous.acquire, e.t, 'unanswered');
        attempts.set(key, { acquire: newAcquire(e.client, 'lock-event', e.t) });
        break;
      }
      case 'acquired':
      case 'failed': {
        const open = attempts.get(key);
        attempts.delete(key);
        const acquire = open?.acquire ?? newAcquire(e.client, 'lock-event', e.t);
        const outcome = e.event === 'acquired' ? 'granted' : (e.votes ?? []).some((v) => v.error !== undefined && TIMEOUT_WORDS.test(v.error)) ? 'timeout' : 'failed';
        answer(acquire, e.t, outcome);
        // An answer without an attempt of its own (a helper that only reports the result) has no latency to speak of.
        if (!open) acquire.latencyMs = null;
        if (outcome === 'granted') startHold(`lock:${key}`, e.client, e.t, e.validityMs !== undefined ? e.t + e.validityMs : e.ttlMs !== undefined ? e.t + e.ttlMs : null);
        break;
      }
      case 'extended': {
        const open = openHolds.get(`lock:${key}`);
        if (open && e.validityMs !== undefined) open.validUntil = e.t + e.validityMs;
        else if (open && e.ttlMs !== undefined) open.validUntil = e.t + e.ttlMs;
        break;
      }
      case 'released':
      case 'release-failed':
        closeHold(`lock:${key}`, e.t);
        break;
      case 'extend-failed':
        break;
    }
  };

  const onRedisInvoke = (e: RedisInvokeEvent) => {
    const command = e.command.toLowerCase();
    if (command === 'set') {
      const [key, , ...rest] = e.args;
      const flags = rest.map((a) => a.toUpperCase());
      if (key !== undefined && flags.includes('NX') && !lockResources.has(key)) {
        const groupKey = `${e.client}\u0000${key}\u0000${e.args[1] ?? ''}`;
        let group = openGroups.get(groupKey);
        // A value already sent to this node is a retry: a new acquire.
        if (!group || group.nodes.has(e.node)) {
          group = { acquire: newAcquire(e.client, 'set-nx', e.t), key, groupKey, ttlMs: rawTtl(flags), nodes: new Set(), pending: 0, ok: 0, timedOut: 0, hold: null };
          openGroups.set(groupKey, group);
        }
        group.nodes.add(e.node);
        group.pending += 1;
        rawSets.set(e.opId, group);
      }
    } else if (command === 'del' || command === 'unlink' || command === 'eval' || command === 'evalsha') {
      const keys = command.startsWith('eval') ? e.args.slice(2, 2 + Number(e.args[1] ?? 0)) : e.args;
      const key = keys.find((k) => openHolds.has(`raw:${e.client}:${k}`));
      if (key !== undefined) rawReleases.set(e.opId, key);
    }
  };

  const onRedisComplete = (e: RedisCompleteEvent) => {
    const group = rawSets.get(e.opId);
    if (group) {
      rawSets.delete(e.opId);
      // `info`: the outcome is unknown (a timeout, or a connection dropped with the command in flight).
      if (e.phase === 'info' || (e.phase === 'fail' && e.error !== undefined && TIMEOUT_WORDS.test(e.error))) group.timedOut += 1;
      if (e.phase === 'ok' && e.reply === 'OK') group.ok += 1;
      group.pending -= 1;
      if (group.pending > 0) return;
      // Every node asked so far has answered. A slow program may still ask another node with the same value (its
      // commands paced one by one): then the group is decided again when that one answers.
      const granted = group.ok * 2 > group.nodes.size;
      answer(group.acquire, e.t, granted ? 'granted' : group.timedOut > 0 ? 'timeout' : 'failed');
      const holdKey = `raw:${e.client}:${group.key}`;
      if (granted && !group.hold) group.hold = startHold(holdKey, e.client, e.t, group.ttlMs === null ? null : e.t + group.ttlMs);
      else if (!granted && group.hold) {
        if (openHolds.get(holdKey)?.hold === group.hold) openHolds.delete(holdKey);
        group.hold.to = group.hold.from;
        group.hold = null;
      }
      return;
    }
    const released = rawReleases.get(e.opId);
    if (released !== undefined) {
      rawReleases.delete(e.opId);
      if (e.phase === 'ok') closeHold(`raw:${e.client}:${released}`, e.t);
    }
  };

  /** A client that crashed or ended asks no more and holds nothing it could use. */
  const endClient = (client: number, t: number) => {
    const prefix = `${client}:`;
    for (const [key, open] of attempts) {
      if (!key.startsWith(prefix)) continue;
      attempts.delete(key);
      answer(open.acquire, t, 'unanswered');
    }
    for (const [id, group] of rawSets) {
      if (group.acquire.client !== client) continue;
      rawSets.delete(id);
      openGroups.delete(group.groupKey);
      if (group.acquire.to === null) answer(group.acquire, t, 'unanswered');
    }
    for (const key of [...openHolds.keys()]) {
      if (key.startsWith(`lock:${prefix}`) || key.startsWith(`raw:${prefix}`)) closeHold(key, t);
    }
  };

  for (const e of history) {
    if (e.type === 'lock') onLock(e);
    else if (e.type === 'redis') {
      if (e.phase === 'invoke') onRedisInvoke(e);
      else onRedisComplete(e);
    } else if (e.type === 'client' && (e.event === 'crash' || e.event === 'exit' || e.event === 'error')) endClient(e.client, e.t);
  }
  const end = endT ?? history[history.length - 1]?.t ?? 0;
  for (const key of [...openHolds.keys()]) closeHold(key, end);
  // Attempts still open stay unanswered (to: null): the history ended before their answer.
  return { acquires, holds };
}

function rawTtl(flags: string[]): number | null {
  const px = flags.indexOf('PX');
  if (px >= 0) return Number(flags[px + 1]) || null;
  const ex = flags.indexOf('EX');
  if (ex >= 0) return (Number(flags[ex + 1]) || 0) * 1000 || null;
  return null;
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
