/**
 * Duplicate executions: a job that should run N times per run (usually once:
 * "the report is sent once a morning, however many workers wake up") ran more.
 * Counted per job and run from completed executions. One cut short by a crash
 * may or may not have had its effect, so it can only make the answer unknown;
 * jobs without an expected count are not checked.
 */
import type { DiagnosisLog } from './diagnoses';
import type { JobTally, Section } from './mutual-exclusion';
import type { CheckResult, CheckerOptions, CounterExample, JobStats } from './types';
import { client as clientValue, code, say, sortedUnique, timeWords, timesValue, type TimeWords } from './format';
import { notes as notesOf, summary } from './said';
import { words, type Words } from '../words';
import type { DiagnosisSpec } from './diagnosis-spec';

/** Sections and writes kept for the late-record diagnosis: the first few are the story. */
/** A job with an expected execution count ran more often, and the extra run held no lock at all. */
export const JOB_WITHOUT_LOCK = { kind: 'job-without-lock', grades: 'explains' } as const satisfies DiagnosisSpec;
/** A job ran again under a lock because the record that it had run (a store write) arrived only after the lock was taken again. */
export const RECORD_AFTER_LOCK = { kind: 'record-after-lock', grades: 'mechanism' } as const satisfies DiagnosisSpec;

const KEPT = 32;

export interface StoreWrite {
  client: number;
  key: string;
  /** When it reached the store. */
  t: number;
  seq: number;
}

export class Duplicates {
  constructor(
    private readonly expected: CheckerOptions['expectedExecutions'],
    private readonly formatTime: TimeWords = timeWords(),
    private readonly diagnoses: DiagnosisLog | null = null,
  ) {}

  expectedFor(job: string): number | null {
    if (this.expected === undefined) return null;
    if (typeof this.expected === 'number') return this.expected;
    return Object.hasOwn(this.expected, job) ? (this.expected[job] ?? null) : null;
  }

  /** Store writes as they reached the store (the first few): a done-record that came too late is one of them. */
  private readonly writes: StoreWrite[] = [];
  /** Executions past their job's count that held a lock: their earlier runs' records are looked for as writes arrive. */
  private readonly extra: { tally: JobTally; section: Section }[] = [];

  /** Remembers the exit that first pushed a job past its expected count: the proof. */
  onCompleted(tally: JobTally, section: Section): void {
    const expected = this.expectedFor(tally.job);
    if (expected === null || tally.completed <= expected) return;
    if (tally.exceededAt === null) tally.exceededAt = section;
    this.checkUnlocked(tally, section, expected);
    if (section.hold !== null && this.extra.length < KEPT) {
      this.extra.push({ tally, section });
      this.checkLateRecord(tally, section);
    }
  }

  /** A write that reached the store (the history's `store` event, stamped when it arrived). */
  observeWrite(write: StoreWrite): void {
    if (this.writes.length >= KEPT) return;
    this.writes.push(write);
    for (const { tally, section } of this.extra) this.checkLateRecord(tally, section);
  }

  /**
   * An extra execution that held a lock, after another client's execution whose first store write after its job
   * (its record that the job ran) reached the store only once the extra one had begun: the record came too late to
   * stop it. Said as the run showed it — who ran when, when the write arrived — for the lock was taken in between.
   */
  private checkLateRecord(tally: JobTally, extra: Section): void {
    if (!this.diagnoses) return;
    for (const earlier of tally.firstCompleted) {
      if (earlier === extra || earlier.client === extra.client || earlier.endT === null || earlier.endT > extra.enterT) continue;
      const record = this.writes.find((w) => w.client === earlier.client && w.t >= earlier.endT!);
      if (!record || record.t <= extra.enterT) continue;
      this.diagnoses.add({
        kind: RECORD_AFTER_LOCK.kind,
        check: 'duplicates',
        subject: `${tally.runId ?? ''}|${tally.job}|${record.key}`,
        words: words('checker.diagnosis.recordAfterLock', {
          client: clientValue(earlier.client),
          job: code(tally.job),
          ended: this.formatTime(earlier.endT!),
          key: code(record.key),
          written: this.formatTime(record.t),
          other: clientValue(extra.client),
          granted: this.formatTime(extra.hold!.startT),
          at: this.formatTime(extra.enterT),
        }),
        seqs: [earlier.endSeq ?? earlier.enterSeq, extra.enterSeq, record.seq],
        window: { from: earlier.enterT, to: record.t },
        clients: [earlier.client, extra.client],
      });
      return;
    }
  }

  /**
   * A job past its count, one of whose executions held no lock (none at all, or only one that had expired
   * before it began): nothing could have kept the other workers out, which is the root cause (lesson 8's
   * five workers without a lock), not a timing accident.
   */
  private checkUnlocked(tally: JobTally, section: Section, expected: number): void {
    const bare = (s: Section) => s.hold === null || s.hold.expiresAt <= s.enterT;
    const unlocked = bare(section) ? section : tally.firstCompleted.find(bare);
    if (!unlocked || !this.diagnoses) return;
    this.diagnoses.add({
      kind: JOB_WITHOUT_LOCK.kind,
      check: 'duplicates',
      subject: `${tally.runId ?? ''}|${tally.job}`,
      words: words('checker.diagnosis.jobWithoutLock', {
        client: clientValue(unlocked.client),
        job: code(tally.job),
        at: this.formatTime(unlocked.enterT),
        expected: timesValue(expected),
      }),
      seqs: [unlocked.enterSeq, unlocked.endSeq ?? unlocked.enterSeq, section.endSeq ?? section.enterSeq],
      window: { from: unlocked.enterT, to: section.endT ?? section.enterT },
      clients: [unlocked.client, section.client],
    });
  }

  stats(tallies: Iterable<JobTally>): { jobs: JobStats[]; duplicateRate: number | null } {
    const jobs: JobStats[] = [];
    let extra = 0;
    let total = 0;
    let counted = false;
    for (const { job, runId, completed, incomplete, open } of tallies) {
      const expected = this.expectedFor(job);
      jobs.push({ job, runId, completed, incomplete, open, expected });
      if (expected === null) continue;
      counted = true;
      extra += Math.max(0, completed - expected);
      total += completed;
    }
    return { jobs, duplicateRate: counted && total > 0 ? extra / total : counted ? 0 : null };
  }

  result(tallies: Iterable<JobTally>, final: boolean, forced: boolean): CheckResult {
    let applicable = false;
    let violations = 0;
    let indeterminate = 0;
    let firstViolation: JobTally | null = null;
    let firstDoubt: { tally: JobTally; expected: number } | null = null;
    const notes: Words[] = [];
    for (const tally of tallies) {
      const expected = this.expectedFor(tally.job);
      if (expected === null) continue;
      applicable = true;
      const unsettled = tally.incomplete + (final ? tally.open : 0);
      if (tally.completed > expected) {
        violations += tally.completed - expected;
        const at = tally.exceededAt;
        if (at && (firstViolation?.exceededAt?.endSeq ?? Infinity) > (at.endSeq ?? Infinity)) firstViolation = tally;
        else if (!firstViolation) firstViolation = tally;
      } else if (tally.completed + unsettled > expected) {
        indeterminate += tally.completed + unsettled - expected;
        firstDoubt ??= { tally, expected };
      } else if (final && tally.completed < expected) {
        notes.push(words('checker.duplicates.noteShort', { job: code(tally.job), completed: tally.completed, expected }));
      }
    }
    const base = { check: 'duplicates' as const, applicable: applicable || forced, violations, indeterminate, ...notesOf(notes) };
    if (firstViolation) {
      const expected = this.expectedFor(firstViolation.job) ?? 0;
      return { ...base, valid: 'violated', ...summary('checker.duplicates.summaryViolated', { n: violations }), counterExample: this.describeViolation(firstViolation, expected) };
    }
    if (firstDoubt) {
      const { tally, expected } = firstDoubt;
      const unsettled = tally.incomplete + (final ? tally.open : 0);
      const counterExample: CounterExample = {
        check: 'duplicates',
        ...say('checker.duplicates.unsettled', { job: code(tally.job), completed: timesValue(tally.completed), expected: timesValue(expected), n: unsettled }),
        seqs: sortedUnique(tally.firstCompleted.flatMap((s) => [s.enterSeq, s.endSeq ?? s.enterSeq])),
        window: windowOf(tally.firstCompleted),
        clients: sortedUnique(tally.firstCompleted.map((s) => s.client)),
      };
      return { ...base, valid: 'unknown', ...summary('checker.duplicates.summaryUnknown', { n: indeterminate }), counterExample };
    }
    if (!applicable) return { ...base, valid: forced ? 'unknown' : 'held', ...summary('checker.duplicates.summaryNone'), counterExample: null };
    return { ...base, valid: 'held', ...summary('checker.duplicates.summaryHeld'), counterExample: null };
  }

  private describeViolation(tally: JobTally, expected: number): CounterExample {
    const shown = tally.firstCompleted.slice(0, expected + 1);
    const who = { list: shown.map((s) => ({ words: words('checker.duplicates.ranAt', { client: clientValue(s.client), at: this.formatTime(s.enterT) }) })) };
    return {
      check: 'duplicates',
      ...say('checker.duplicates.ranTooOften', {
        job: code(tally.job),
        ran: timesValue(tally.completed),
        expected: timesValue(expected),
        who,
        more: tally.completed > shown.length ? 'yes' : 'no',
      }),
      seqs: sortedUnique(shown.flatMap((s) => [s.enterSeq, s.endSeq ?? s.enterSeq])),
      window: windowOf(shown),
      clients: sortedUnique(shown.map((s) => s.client)),
    };
  }
}

function windowOf(sections: readonly Section[]): { from: number; to: number } {
  const first = sections[0];
  const last = sections.at(-1);
  if (!first || !last) return { from: 0, to: 0 };
  return { from: first.enterT, to: last.endT ?? last.enterT };
}
