/**
 * The checker as a stream: feed it history as it arrives, ask for a verdict
 * whenever you like. Each event is handled once in O(1)-ish work (small maps
 * keyed by job, client, key), and a verdict costs O(what it reports), so the
 * server can check a run as it goes and the browser can check a whole
 * history in one pass.
 */
import type { HistoryEvent } from '../history';
import type { Said } from '../words';
import { ClientTracker } from './clients';
import { DiagnosisLog } from './diagnoses';
import { Duplicates } from './duplicates';
import { Fencing, writeSession } from './fencing';
import { LockHolds } from './holds';
import { Liveness } from './liveness';
import { MutualExclusion } from './mutual-exclusion';
import { RedisModel } from './redis-model';
import { mergeValidity } from './validity';
import { client as clientValue, code, ended, say, timeWords } from './format';
import type { CheckName, CheckResult, CheckerOptions, CounterExample, Verdict, VerdictOptions } from './types';
import { CHECK_NAMES } from './types';

export const DEFAULT_CHECKER_OPTIONS = Object.freeze({
  livenessBoundMs: 5_000,
  maxDiagnoses: 20,
});

export class IncrementalChecker {
  private readonly required: ReadonlySet<CheckName>;
  private readonly diagnoses: DiagnosisLog;
  private readonly clients = new ClientTracker();
  private readonly model: RedisModel;
  private readonly holds: LockHolds;
  private readonly exclusion: MutualExclusion;
  private readonly duplicates: Duplicates;
  private readonly fencing: Fencing;
  private readonly liveness: Liveness;
  /** Redis commands sent and not answered yet (op id → send time), while their client lives: see `decided`. */
  private readonly unanswered = new Map<number, { t: number; client: number }>();
  private lastSeq = -Infinity;
  private events = 0;
  private firstT: number | null = null;
  private lastT: number | null = null;

  constructor(options: CheckerOptions = {}) {
    this.required = new Set(options.required ?? []);
    this.diagnoses = new DiagnosisLog(options.maxDiagnoses ?? DEFAULT_CHECKER_OPTIONS.maxDiagnoses);
    const at = timeWords(options.timeOrigin ?? 0);
    this.model = new RedisModel(this.diagnoses, options.lockKeys ?? [], at);
    this.holds = new LockHolds(this.diagnoses, at, options.nodes ?? 0);
    this.exclusion = new MutualExclusion(this.clients, this.holds, at);
    this.duplicates = new Duplicates(options.expectedExecutions, at, this.diagnoses);
    this.fencing = new Fencing(at);
    this.exclusion.onCompleted = (tally, section) => this.duplicates.onCompleted(tally, section);
    this.liveness = new Liveness(this.holds, options.livenessBoundMs ?? DEFAULT_CHECKER_OPTIONS.livenessBoundMs, options.nodes, at);
  }

  /** Feeds events in history order. Events at or below the last seq seen are skipped, so re-sending a batch is harmless. */
  push(events: readonly HistoryEvent[]): this {
    for (const event of events) this.observe(event);
    return this;
  }

  /** How many events were taken in. */
  get size(): number {
    return this.events;
  }

  verdict(options: VerdictOptions = {}): Verdict {
    const final = options.final ?? false;
    const lastT = this.lastT ?? 0;
    const checks: Record<CheckName, CheckResult> = {
      'mutual-exclusion': this.exclusion.result(final, lastT, this.required.has('mutual-exclusion')),
      fencing: this.fencing.result(this.required.has('fencing')),
      liveness: this.liveness.result(this.required.has('liveness')),
      duplicates: this.duplicates.result(this.exclusion.tallies.values(), final, this.required.has('duplicates')),
    };
    const applicable = CHECK_NAMES.map((name) => checks[name]).filter((c) => c.applicable);
    const valid = applicable.length === 0 ? 'unknown' : mergeValidity(...applicable.map((c) => c.valid));
    const { jobs, duplicateRate } = this.duplicates.stats(this.exclusion.tallies.values());
    return {
      valid,
      final,
      checks,
      counterExample: earliest(applicable.filter((c) => c.valid === 'violated')) ?? earliest(applicable.filter((c) => c.valid === 'unknown')),
      diagnoses: this.diagnoses.snapshot(),
      savedByFencing: { count: this.fencing.saved.count, seqs: [...this.fencing.saved.seqs] },
      stats: {
        events: this.events,
        firstT: this.firstT,
        lastT: this.lastT,
        sections: this.exclusion.sections,
        storeWrites: this.fencing.writes,
        lockAcquires: this.holds.acquires,
        jobs,
        duplicateRate,
      },
    };
  }

  /**
   * Why the verdict can no longer change, while the run still goes; null while it could.
   *
   * The rule, and why it never turns a run that could still recover into a failure: checks only ever add
   * violations (a safety violation is never taken back), and a proven liveness violation is withdrawn only by
   * an acquire of unknown outcome that was sent before it was proven (liveness.ts). So once a liveness
   * violation is proven and every command sent before that moment has been answered (or its client is gone),
   * the verdict is violated for good, whatever the clients do next. We say so only when the lock is stuck —
   * its holder's program ended while holding it and its key has no TTL, so it never frees — which is the case
   * where the rest of the run is the same failure over and over; a run whose lock is merely slow to get goes
   * on, so it can show what happens next.
   */
  decided(): string | null {
    return this.decidedSaid()?.message ?? null;
  }

  /** `decided`, in English and as data (the run's console and its end reason in the page's language). */
  decidedSaid(): Said | null {
    // Runs after every event of a run: the in-flight commands are only looked at once a stuck violation stands.
    const stuck = this.liveness.settledStuck(() => {
      let oldest = Infinity;
      for (const { t } of this.unanswered.values()) if (t < oldest) oldest = t;
      return oldest;
    });
    if (!stuck) return null;
    const { holder } = stuck;
    return say('checker.liveness.decided', { client: clientValue(holder.client), ended: ended(holder.endHow ?? 'exit'), resource: code(stuck.resource) });
  }

  private trackReplies(event: HistoryEvent): void {
    if (event.type === 'redis') {
      if (event.phase === 'invoke') this.unanswered.set(event.opId, { t: event.t, client: event.client });
      else this.unanswered.delete(event.opId);
    } else if (event.type === 'client' && (event.event === 'exit' || event.event === 'error' || event.event === 'crash')) {
      // A gone client's commands are never answered, and never recorded as of unknown outcome either.
      for (const [opId, op] of this.unanswered) if (op.client === event.client) this.unanswered.delete(opId);
    }
  }

  private observe(event: HistoryEvent): void {
    if (event.seq <= this.lastSeq) return;
    this.lastSeq = event.seq;
    this.events += 1;
    this.firstT ??= event.t;
    this.lastT = event.t;
    this.trackReplies(event);

    const signal = this.clients.observe(event);
    if (signal) {
      this.holds.observeClient(signal);
      this.exclusion.observeClient(signal);
    }
    for (const raw of this.model.observe(event)) {
      for (const outcome of this.holds.observeRaw(raw)) this.liveness.observe(outcome);
    }
    switch (event.type) {
      case 'node':
        this.liveness.observeNode(event);
        break;
      case 'redis':
        this.liveness.seeNode(event.node);
        break;
      case 'lock':
        for (const resource of event.resources) this.model.addLockKey(resource);
        for (const outcome of this.holds.observeLock(event)) this.liveness.observe(outcome);
        break;
      case 'job':
        this.exclusion.observe(event);
        break;
      case 'store': {
        const session = writeSession(this.exclusion.openSectionStart(event.client), this.holds.currentHold(event.client, event.t)?.startT ?? null, event.t);
        this.fencing.observe(event, session);
        this.exclusion.observeWrite(event.client, event.token, event.accepted);
        this.duplicates.observeWrite({ client: event.client, key: event.key, t: event.t, seq: event.seq });
        if (event.token !== null) this.holds.fencedWrite(event.client);
        break;
      }
      default:
        break;
    }
  }
}

/** The counter-example whose proof came first (its last seq is the proving event). */
function earliest(checks: readonly CheckResult[]): CounterExample | null {
  let best: CounterExample | null = null;
  for (const check of checks) {
    const example = check.counterExample;
    if (!example) continue;
    if (!best || (example.seqs.at(-1) ?? 0) < (best.seqs.at(-1) ?? 0)) best = example;
  }
  return best;
}
