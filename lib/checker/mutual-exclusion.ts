/**
 * Mutual exclusion: no two clients inside the same job at once.
 *
 * A critical section spans its `enter` to its `exit`. Choices, documented:
 * - A client's crash (or the end of its program) cuts its open sections at
 *   that moment: a dead process cannot act any more. The execution is then
 *   *incomplete* (its effect is unknown — see duplicates).
 * - A paused client is still inside (a GC pause does not leave the critical
 *   section; it resumes inside it — Kleppmann's case). When B enters while
 *   A is paused inside, the overlap is *pending*: it is proven the moment A
 *   resumes (A will act again inside the job) and stays *indeterminate* if A
 *   crashes or the history ends first (A may never have acted again).
 * - When B enters while A is inside and running, the overlap is proven at
 *   once: the history is ordered, and A had not exited.
 * - A section open when a final history ends (no exit, no crash) is counted
 *   as open; overlaps it took part in were decided when the other entered.
 * - Overlapping executions by the same client (e.g. a timer firing again)
 *   are not a lock violation and are not reported.
 * - Fencing excuses an overlap (lesson 7: "when a lock is only an
 *   optimisation"): if the two sections wrote the protected store, and every
 *   write they made carried a fencing token, the store's safety rests on
 *   fencing (checked by the fencing check), so the overlap is reported as a
 *   note, not a violation. That can only be decided once both sections have
 *   ended, so until then a proven overlap is *provisional* (unknown mid-run);
 *   a final history decides it with what it has.
 */
import type { JobEvent } from '../history';
import type { ClientSignal, ClientTracker } from './clients';
import type { Hold, LockHolds } from './holds';
import type { CheckResult, CounterExample, JobStats } from './types';
import { client as clientValue, code, sortedUnique, timeWords, type TimeWords } from './format';
import { notes as notesOf, sayWords, summary } from './said';
import { words, type Words } from '../words';

export interface Section {
  job: string;
  runId: string | null;
  client: number;
  execution: number;
  enterT: number;
  enterSeq: number;
  end: 'open' | 'exit' | 'cut';
  endT: number | null;
  endSeq: number | null;
  cutHow: 'crash' | 'exit' | 'error' | null;
  pausedMs: number;
  pausedSince: number | null;
  pauseSeq: number | null;
  hold: Hold | null;
  /** Store writes made while inside: with a token, and accepted without one. */
  fencedWrites: number;
  unfencedWrites: number;
}

interface Overlap {
  /** The earlier section (inside first). */
  a: Section;
  /** The section that entered while `a` was inside. */
  b: Section;
  /** The event that proves (or, for indeterminate ones, leaves open) the overlap. */
  proofSeq: number;
  proofT: number;
  /** a was paused when b entered; set when a resumed. */
  resumedT: number | null;
}

/** Per job and run: how its executions ended; kept small (the first few sections for messages). */
export interface JobTally {
  job: string;
  runId: string | null;
  completed: number;
  incomplete: number;
  open: number;
  /** Completed sections in order, as many as a duplicates message needs. */
  firstCompleted: Section[];
  /** The exit that made `completed` exceed what was expected, set by the duplicates check. */
  exceededAt: Section | null;
}

const KEPT = 32;

export class MutualExclusion {
  private readonly openByJob = new Map<string, Map<string, Section>>();
  private readonly openByClient = new Map<number, Set<Section>>();
  private pending: Overlap[] = [];
  /** Proven in time, waiting for both sections to end to see whether fencing excuses them. */
  private provisional: Overlap[] = [];
  private readonly proven: Overlap[] = [];
  private readonly excused: Overlap[] = [];
  private excusedCount = 0;
  private readonly indeterminate: Overlap[] = [];
  private provenCount = 0;
  private indeterminateCount = 0;
  sections = 0;
  readonly tallies = new Map<string, JobTally>();
  /** Called on every completed exit, so the duplicates check can note when a count is exceeded. */
  onCompleted: (tally: JobTally, section: Section) => void = () => {};

  constructor(
    private readonly clients: ClientTracker,
    private readonly holds: LockHolds,
    private readonly at: TimeWords = timeWords(),
  ) {}

  observe(event: JobEvent): void {
    if (event.phase === 'enter') this.enter(event);
    else this.exit(event);
  }

  /** The start of the critical section the client is in, if any (the latest). */
  openSectionStart(client: number): number | null {
    let start: number | null = null;
    for (const section of this.openByClient.get(client) ?? []) {
      if (start === null || section.enterT > start) start = section.enterT;
    }
    return start;
  }

  /** A store write by the client, counted against the sections it is inside. */
  observeWrite(client: number, token: number | null, accepted: boolean): void {
    for (const section of this.openByClient.get(client) ?? []) {
      if (token !== null) section.fencedWrites += 1;
      else if (accepted) section.unfencedWrites += 1;
    }
  }

  observeClient(signal: ClientSignal): void {
    const open = this.openByClient.get(signal.client);
    if (signal.kind === 'pause') {
      for (const section of open ?? []) {
        section.pausedSince = signal.t;
        section.pauseSeq = signal.seq;
      }
      return;
    }
    if (signal.kind === 'resume') {
      for (const section of open ?? []) {
        if (section.pausedSince !== null) section.pausedMs += signal.t - section.pausedSince;
        section.pausedSince = null;
      }
      this.settlePending(signal.client, (overlap) => {
        overlap.proofSeq = signal.seq;
        overlap.proofT = signal.t;
        overlap.resumedT = signal.t;
        this.provide(overlap);
      });
      return;
    }
    if (signal.kind !== 'end') return;
    for (const section of [...(open ?? [])]) {
      if (section.pausedSince !== null) section.pausedMs += signal.t - section.pausedSince;
      section.pausedSince = null;
      this.close(section, 'cut', signal.t, signal.seq, signal.how);
    }
    this.settlePending(signal.client, (overlap) => {
      overlap.proofSeq = signal.seq;
      overlap.proofT = signal.t;
      this.markIndeterminate(overlap);
    });
  }

  result(final: boolean, lastT: number, forced: boolean): CheckResult {
    const applicable = this.sections > 0;
    // A final history decides what is still provisional, without changing state (a verdict is a read).
    let provenCount = this.provenCount;
    let excusedCount = this.excusedCount;
    let firstProven = this.proven[0];
    let firstExcused = this.excused[0];
    const undecided: Overlap[] = [];
    for (const overlap of this.provisional) {
      if (!final) undecided.push(overlap);
      else if (isExcused(overlap)) {
        excusedCount += 1;
        firstExcused ??= overlap;
      } else {
        provenCount += 1;
        if (!firstProven || overlap.proofSeq < firstProven.proofSeq) firstProven = overlap;
      }
    }
    const pendingCount = this.pending.length + undecided.length;
    const indeterminate = this.indeterminateCount + pendingCount;
    const openCount = [...this.openByClient.values()].reduce((n, s) => n + s.size, 0);
    const notes: Words[] = [];
    if (final && openCount > 0) notes.push(words('checker.mutualExclusion.noteOpen', { n: openCount }));
    if (firstExcused) notes.push(excuseWords(firstExcused, excusedCount, lastT, this.at));
    const base = { check: 'mutual-exclusion' as const, applicable: applicable || forced, violations: provenCount, indeterminate, ...notesOf(notes) };
    if (firstProven) {
      return { ...base, valid: 'violated', ...summary('checker.mutualExclusion.summaryViolated', { n: provenCount }), counterExample: this.describe(firstProven, 'proven', lastT) };
    }
    const doubt = this.indeterminate[0] ?? this.pending[0];
    if (doubt) {
      return { ...base, valid: 'unknown', ...summary('checker.mutualExclusion.summaryPaused', { n: indeterminate, final: final ? 'yes' : 'no' }), counterExample: this.describe(doubt, this.indeterminate[0] ? 'indeterminate' : 'pending', lastT) };
    }
    const running = undecided[0];
    if (running) {
      return { ...base, valid: 'unknown', ...summary('checker.mutualExclusion.summaryRunning'), counterExample: this.describe(running, 'running', lastT) };
    }
    if (!applicable) {
      return { ...base, valid: forced ? 'unknown' : 'held', ...summary('checker.mutualExclusion.summaryNone'), counterExample: null };
    }
    return { ...base, valid: 'held', ...summary('checker.mutualExclusion.summaryHeld', { n: this.sections }), counterExample: null };
  }

  jobStats(): Omit<JobStats, 'expected'>[] {
    return [...this.tallies.values()].map(({ job, runId, completed, incomplete, open }) => ({ job, runId, completed, incomplete, open }));
  }

  private enter(event: JobEvent): void {
    this.sections += 1;
    const section: Section = {
      job: event.job,
      runId: event.runId ?? null,
      client: event.client,
      execution: event.execution,
      enterT: event.t,
      enterSeq: event.seq,
      end: 'open',
      endT: null,
      endSeq: null,
      cutHow: null,
      pausedMs: 0,
      pausedSince: null,
      pauseSeq: null,
      hold: this.holds.currentHold(event.client, event.t),
      fencedWrites: 0,
      unfencedWrites: 0,
    };
    let open = this.openByJob.get(event.job);
    if (!open) {
      open = new Map();
      this.openByJob.set(event.job, open);
    }
    for (const other of open.values()) {
      if (other.client === event.client) continue;
      const overlap: Overlap = { a: other, b: section, proofSeq: event.seq, proofT: event.t, resumedT: null };
      this.holds.bothInside(other.hold, section.hold, event.t, event.seq);
      if (this.clients.isPaused(other.client)) this.pending.push(overlap);
      else this.provide(overlap);
    }
    open.set(sectionKey(event.client, event.execution), section);
    let mine = this.openByClient.get(event.client);
    if (!mine) {
      mine = new Set();
      this.openByClient.set(event.client, mine);
    }
    mine.add(section);
    this.tally(section).open += 1;
  }

  private exit(event: JobEvent): void {
    const section = this.openByJob.get(event.job)?.get(sectionKey(event.client, event.execution));
    if (!section) return;
    this.close(section, 'exit', event.t, event.seq, null);
    const running = event.t - section.enterT - section.pausedMs;
    this.holds.checkSection(section.hold, {
      client: section.client,
      job: section.job,
      runningMs: running,
      enterSeq: section.enterSeq,
      exitSeq: event.seq,
      enterT: section.enterT,
      exitT: event.t,
    });
  }

  private close(section: Section, end: 'exit' | 'cut', t: number, seq: number, how: Section['cutHow']): void {
    section.end = end;
    section.endT = t;
    section.endSeq = seq;
    section.cutHow = how;
    this.openByJob.get(section.job)?.delete(sectionKey(section.client, section.execution));
    this.openByClient.get(section.client)?.delete(section);
    this.decideEnded();
    const tally = this.tally(section);
    tally.open -= 1;
    if (end === 'cut') {
      tally.incomplete += 1;
      return;
    }
    tally.completed += 1;
    if (tally.firstCompleted.length < KEPT) tally.firstCompleted.push(section);
    this.onCompleted(tally, section);
  }

  private tally(section: Section): JobTally {
    const key = `${section.runId ?? ''}\u0000${section.job}`;
    let tally = this.tallies.get(key);
    if (!tally) {
      tally = { job: section.job, runId: section.runId, completed: 0, incomplete: 0, open: 0, firstCompleted: [], exceededAt: null };
      this.tallies.set(key, tally);
    }
    return tally;
  }

  private settlePending(client: number, settle: (overlap: Overlap) => void): void {
    if (this.pending.length === 0) return;
    const still: Overlap[] = [];
    for (const overlap of this.pending) {
      if (overlap.a.client === client) settle(overlap);
      else still.push(overlap);
    }
    this.pending = still;
  }

  /** Proven in time; whether it is a violation waits for both sections to end. */
  private provide(overlap: Overlap): void {
    this.provisional.push(overlap);
  }

  private decideEnded(): void {
    if (this.provisional.length === 0) return;
    const still: Overlap[] = [];
    for (const overlap of this.provisional) {
      if (overlap.a.end === 'open' || overlap.b.end === 'open') {
        still.push(overlap);
      } else if (isExcused(overlap)) {
        this.excusedCount += 1;
        if (this.excused.length < KEPT) this.excused.push(overlap);
      } else {
        this.provenCount += 1;
        if (this.proven.length < KEPT) this.proven.push(overlap);
      }
    }
    this.provisional = still;
  }

  private markIndeterminate(overlap: Overlap): void {
    this.indeterminateCount += 1;
    if (this.indeterminate.length < KEPT) this.indeterminate.push(overlap);
  }

  private describe(overlap: Overlap, status: 'proven' | 'indeterminate' | 'pending' | 'running', lastT: number): CounterExample {
    const { a, b } = overlap;
    const A = clientValue(a.client);
    const B = clientValue(b.client);
    const job = code(a.job);
    const seqs = [a.enterSeq, b.enterSeq, overlap.proofSeq];
    if (a.endSeq !== null) seqs.push(a.endSeq);
    if (b.endSeq !== null) seqs.push(b.endSeq);
    if (a.pauseSeq !== null && overlap.resumedT !== null) seqs.push(a.pauseSeq);
    const aEnd = a.endT ?? lastT;
    const bEnd = b.endT ?? lastT;
    const window = { from: b.enterT, to: Math.max(b.enterT, Math.min(aEnd, bEnd)) };
    const formatTime = this.at;
    const endOfA = { words: sectionEndWords(a, this.at) };
    const both = { a: A, b: B, job, bAt: formatTime(b.enterT) };
    let said: Words;
    if (status === 'running') said = words('checker.mutualExclusion.running', both);
    else if (status === 'proven' && overlap.resumedT === null) said = words('checker.mutualExclusion.proven', { ...both, aAt: formatTime(a.enterT), aEnd: endOfA });
    else if (status === 'proven') {
      said = words('checker.mutualExclusion.provenPaused', { ...both, aAt: formatTime(a.enterT), resumedAt: formatTime(overlap.resumedT ?? b.enterT), aEnd: endOfA });
    } else if (status === 'indeterminate') {
      said = words('checker.mutualExclusion.indeterminate', { ...both, how: a.cutHow === 'crash' ? 'crash' : 'exit', endAt: formatTime(overlap.proofT) });
    } else said = words('checker.mutualExclusion.pending', both);
    return { check: 'mutual-exclusion', ...sayWords(said), seqs: sortedUnique(seqs), window, clients: sortedUnique([a.client, b.client]) };
  }
}

/** Both sections wrote the store, and only with fencing tokens: the store's safety rests on fencing. */
function isExcused({ a, b }: Overlap): boolean {
  return a.fencedWrites + b.fencedWrites > 0 && a.unfencedWrites === 0 && b.unfencedWrites === 0;
}

function excuseWords(overlap: Overlap, count: number, lastT: number, formatTime: TimeWords): Words {
  const { a, b } = overlap;
  const to = Math.min(a.endT ?? lastT, b.endT ?? lastT);
  return words('checker.mutualExclusion.noteFenced', { a: clientValue(a.client), b: clientValue(b.client), job: code(a.job), from: formatTime(b.enterT), to: formatTime(to), count });
}

function sectionKey(client: number, execution: number): string {
  return `${client}#${execution}`;
}

function sectionEndWords(section: Section, formatTime: TimeWords): Words {
  const end = section.endT === null ? 'inside' : section.end === 'exit' ? 'exit' : section.end === 'cut' ? 'cut' : 'inside';
  return words('checker.mutualExclusion.sectionEnd', { end, how: section.cutHow ?? 'crash', at: formatTime(section.endT ?? 0) });
}
