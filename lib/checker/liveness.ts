/**
 * Liveness: the lock was free and a quorum of its nodes up, yet clients kept
 * failing to take it for longer than a bound.
 *
 * Per lock, a *starvation window* opens at the first failed acquire that
 * happens while the lock is free (no live hold: released, or its key expired)
 * and a quorum of the lock's nodes is up; it grows with each further failure
 * under the same conditions and closes when someone acquires the lock, when
 * the lock is held, or when the quorum is lost. The window's length is from
 * its first failure to its last failure (or to the acquire that closed it):
 * time nobody tried does not count against the lock.
 * - A crashed holder whose key has no TTL makes the lock "free" here: the key
 *   never expires, which is the bug (lesson 1).
 * - Failures with no quorum up are expected unavailability, noted, not a violation.
 * - An acquire of unknown outcome (`info`: its reply timed out) may have set
 *   the key anyway. Until that key's TTL would have run out the lock is not
 *   known to be free, so failures then count for nothing, and a wait it could
 *   explain is withdrawn. With no TTL (or none we can read) the key may stay
 *   forever: waits after it are indeterminate, not violations.
 * Nodes are up unless a NodeStateEvent said otherwise; a lock's nodes are the
 * nodes it was voted or set on (else all nodes); the quorum is the LockEvent's,
 * else a majority of the lock's nodes.
 */
import type { NodeStateEvent } from '../history';
import type { Hold, LockHolds, LockOutcome } from './holds';
import type { CheckResult, CounterExample } from './types';
import { client as clientValue, code, duration, ended, say, sortedUnique, timeWords, type TimeWords } from './format';
import { notes as notesOf, summary } from './said';
import { words, type Words } from '../words';

interface Window {
  resource: string;
  startT: number;
  startSeq: number;
  lastT: number;
  lastSeq: number;
  clients: Set<number>;
  uncertain: boolean;
  up: number;
  nodes: number;
  quorum: number;
  stuck: Hold | null;
  report: Report | null;
}

interface Report {
  /** The failure that made the window longer than the bound. */
  triggerT: number;
  example: CounterExample;
  uncertain: boolean;
  /** An acquire of unknown outcome, sent before the trigger, may explain the wait. */
  withdrawn: boolean;
  /** The holder that crashed with the lock and left its key without a TTL, when that is why nobody could take it. */
  stuck: Hold | null;
}

interface Outage {
  resource: string;
  fromT: number;
  toT: number;
  up: number;
  nodes: number;
  quorum: number;
}

export class Liveness {
  private readonly nodeUp = new Map<number, boolean>();
  private maxNode = 0;
  private readonly windows = new Map<string, Window>();
  private readonly outages = new Map<string, Outage>();
  private readonly reports: Report[] = [];
  /** Per lock, until when an acquire of unknown outcome may hold its key (Infinity: maybe forever). */
  private readonly maybeHeldUntil = new Map<string, number>();
  outcomes = 0;

  constructor(
    private readonly holds: LockHolds,
    private readonly boundMs: number,
    private readonly configuredNodes: number | undefined,
    private readonly formatTime: TimeWords = timeWords(),
  ) {}

  observeNode(event: NodeStateEvent): void {
    this.nodeUp.set(event.node, event.state === 'up');
    this.seeNode(event.node);
  }

  seeNode(node: number): void {
    if (node > this.maxNode) this.maxNode = node;
  }

  observe(outcome: LockOutcome): void {
    this.outcomes += 1;
    const window = this.windows.get(outcome.resource);
    if (outcome.kind === 'unknown') {
      this.observeUnknown(outcome, window);
      return;
    }
    if (outcome.kind === 'acquired') {
      // Someone took it, so a key that might have stayed forever evidently did not.
      if (this.maybeHeldUntil.get(outcome.resource) === Infinity) this.maybeHeldUntil.delete(outcome.resource);
      if (window) {
        this.extendTo(window, outcome.t, outcome.seq);
        this.windows.delete(outcome.resource);
      }
      return;
    }
    const maybeHeldUntil = this.maybeHeldUntil.get(outcome.resource);
    if (maybeHeldUntil !== undefined && maybeHeldUntil <= outcome.t) this.maybeHeldUntil.delete(outcome.resource);
    const ghost = maybeHeldUntil !== undefined && maybeHeldUntil > outcome.t;
    if (ghost && maybeHeldUntil !== Infinity) {
      // The key an unanswered acquire may have set is still alive: failing is expected.
      this.windows.delete(outcome.resource);
      return;
    }
    const { free, stuck } = this.holds.freedom(outcome.resource, outcome.t);
    if (!free) {
      this.windows.delete(outcome.resource);
      return;
    }
    const { up, nodes, quorum } = this.quorumState(outcome.resource);
    if (up < quorum) {
      this.windows.delete(outcome.resource);
      this.noteOutage(outcome, up, nodes, quorum);
      return;
    }
    if (!window) {
      this.windows.set(outcome.resource, {
        resource: outcome.resource,
        startT: outcome.t,
        startSeq: outcome.seq,
        lastT: outcome.t,
        lastSeq: outcome.seq,
        clients: new Set([outcome.client]),
        uncertain: ghost,
        up,
        nodes,
        quorum,
        stuck,
        report: null,
      });
      return;
    }
    window.clients.add(outcome.client);
    window.stuck ??= stuck;
    if (ghost) window.uncertain = true;
    this.extendTo(window, outcome.t, outcome.seq);
  }

    result(forced: boolean): CheckResult {
    const applicable = this.outcomes > 0;
    const notes = [...this.outages.values()]
      .filter((o) => o.toT > o.fromT)
      .map((o) =>
        words('checker.liveness.noteOutage', { resource: code(o.resource), from: this.formatTime(o.fromT), to: this.formatTime(o.toT), up: o.up, nodes: o.nodes, quorum: o.quorum }),
      );
    const standing = this.reports.filter((r) => !r.withdrawn);
    const violated = standing.filter((r) => !r.uncertain);
    const doubtful = standing.filter((r) => r.uncertain);
    const base = { check: 'liveness' as const, applicable: applicable || forced, violations: violated.length, indeterminate: doubtful.length, ...notesOf(notes) };
    const first = violated[0];
    if (first) return { ...base, valid: 'violated', ...summary('checker.liveness.summaryViolated', { bound: duration(this.boundMs) }), counterExample: first.example };
    const doubt = doubtful[0];
    if (doubt) return { ...base, valid: 'unknown', ...summary('checker.liveness.summaryUnknown'), counterExample: doubt.example };
    if (!applicable) return { ...base, valid: forced ? 'unknown' : 'held', ...summary('checker.liveness.summaryNone'), counterExample: null };
    return { ...base, valid: 'held', ...summary('checker.liveness.summaryHeld', { bound: duration(this.boundMs) }), counterExample: null };
  }

  /**
   * A violation nothing can take back: proven (not uncertain), on a lock whose holder crashed and whose key has
   * no TTL, so it never frees by itself. A report is only ever withdrawn by an acquire of unknown outcome sent
   * before it was proven (observeUnknown); `unansweredSince` gives the send time of the oldest command still
   * waiting for its reply, and a report proven before it can no longer be withdrawn.
   */
  settledStuck(unansweredSince: () => number): { resource: string; holder: Hold; provenAt: number } | null {
    for (const report of this.reports) {
      if (report.withdrawn || report.uncertain || !report.stuck) continue;
      if (unansweredSince() <= report.triggerT) continue;
      return { resource: report.stuck.resource, holder: report.stuck, provenAt: report.triggerT };
    }
    return null;
  }

  private observeUnknown(outcome: LockOutcome, window: Window | undefined): void {
    const { since, until } = outcome.maybeHeld ?? { since: outcome.t, until: Infinity };
    this.maybeHeldUntil.set(outcome.resource, Math.max(this.maybeHeldUntil.get(outcome.resource) ?? -Infinity, until));
    if (!window) return;
    // A wait that was already too long before the command was even sent stands.
    const report = window.report && window.report.triggerT < since ? null : window.report;
    if (until !== Infinity) {
      // Every failure from `since` on may have met that key: the wait is explained.
      if (report) report.withdrawn = true;
      if (!window.report || report) this.windows.delete(outcome.resource);
      return;
    }
    window.uncertain = true;
    if (report) report.uncertain = true;
  }

  private extendTo(window: Window, t: number, seq: number): void {
    window.lastT = t;
    window.lastSeq = seq;
    if (window.report || t - window.startT <= this.boundMs) return;
    const who = { list: [...window.clients].sort((a, b) => a - b).map(clientValue), and: true };
    const why = window.stuck ? this.stuckWords(window.stuck) : words('checker.liveness.free', { up: window.up, nodes: window.nodes, quorum: window.quorum });
    const counterExample: CounterExample = {
      check: 'liveness',
      ...say('checker.liveness.starved', {
        waited: duration(t - window.startT),
        from: this.formatTime(window.startT),
        to: this.formatTime(t),
        who,
        resource: code(window.resource),
        why: { words: why },
        bound: duration(this.boundMs),
      }),
      seqs: sortedUnique([window.startSeq, seq, ...(window.stuck ? [window.stuck.startSeq] : [])]),
      window: { from: window.startT, to: t },
      clients: sortedUnique(window.clients),
    };
    window.report = { triggerT: t, example: counterExample, uncertain: window.uncertain, withdrawn: false, stuck: window.stuck };
    this.reports.push(window.report);
  }

  /** Why a lock nobody holds is still taken: its holder is gone and the key has no TTL. */
  private stuckWords(stuck: Hold): Words {
    const known = stuck.endHow !== null && stuck.endedAt !== null;
    return words('checker.liveness.stuck', {
      client: clientValue(stuck.client),
      gone: known ? 'yes' : 'no',
      ended: ended(stuck.endHow ?? 'exit'),
      at: this.formatTime(stuck.endedAt ?? 0),
    });
  }

  private quorumState(resource: string): { up: number; nodes: number; quorum: number } {
    // Runs on every failed acquire: count without building arrays.
    const lockNodes = this.holds.nodesOf(resource);
    const known = this.holds.quorumOf(resource);
    // A quorum of q means the lock lives on at least 2q − 1 nodes: Redlock's events name only the votes it
    // had when it decided, so with three of five nodes down the nodes seen are too few — count the lab's.
    const tooFewSeen = known !== undefined && lockNodes.size < 2 * known - 1 && (this.configuredNodes ?? 0) >= 2 * known - 1;
    let total = 0;
    let up = 0;
    if (lockNodes.size > 0 && !tooFewSeen) {
      for (const node of lockNodes) {
        total += 1;
        if (this.nodeUp.get(node) ?? true) up += 1;
      }
    } else {
      total = this.configuredNodes ?? Math.max(this.maxNode, 1);
      for (let node = 1; node <= total; node++) if (this.nodeUp.get(node) ?? true) up += 1;
    }
    const quorum = known ?? Math.floor(total / 2) + 1;
    return { up, nodes: total, quorum };
  }

  private noteOutage(outcome: LockOutcome, up: number, nodes: number, quorum: number): void {
    const outage = this.outages.get(outcome.resource);
    if (outage && outage.toT >= outcome.t - this.boundMs) {
      outage.toT = outcome.t;
      return;
    }
    if (!outage) this.outages.set(outcome.resource, { resource: outcome.resource, fromT: outcome.t, toT: outcome.t, up, nodes, quorum });
  }
}
