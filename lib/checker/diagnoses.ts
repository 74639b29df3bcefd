import type { CheckName, Diagnosis, DiagnosisKind, TimeWindow } from './types';
import { sortedUnique } from './format';
import { english } from './said';
import type { Words } from '../words';

export interface DiagnosisInput {
  kind: DiagnosisKind;
  check: CheckName;
  /** The sentence as data; its English rendering is the diagnosis's `message`. */
  words: Words;
  seqs: readonly number[];
  window: TimeWindow;
  clients: readonly number[];
  /**
   * What makes two findings "the same bug" beyond their kind: the cause (the key, the node, the job), not the
   * client that hit it, so one cause is one diagnosis however many clients it hurt.
   */
  subject: string;
}

/**
 * Collects diagnoses. The same bug tends to repeat (every execution of a job
 * with too short a TTL, every client of a race), so repeats of one kind and
 * subject only bump a counter and add their clients: the message keeps
 * describing the first, which the timeline marks.
 */
export class DiagnosisLog {
  private readonly byKey = new Map<string, Diagnosis>();
  private readonly list: Diagnosis[] = [];

  constructor(private readonly max: number) {}

  add(input: DiagnosisInput): void {
    const key = `${input.kind}\u0000${input.subject}`;
    const seen = this.byKey.get(key);
    if (seen) {
      seen.occurrences += 1;
      seen.clients = sortedUnique([...seen.clients, ...input.clients]);
      return;
    }
    if (this.list.length >= this.max) return;
    const diagnosis: Diagnosis = {
      kind: input.kind,
      check: input.check,
      message: english(input.words),
      words: input.words,
      seqs: sortedUnique(input.seqs),
      window: { ...input.window },
      clients: sortedUnique(input.clients),
      occurrences: 1,
    };
    this.byKey.set(key, diagnosis);
    this.list.push(diagnosis);
  }

  /**
   * Says the diagnosis of `kind` and `subject` in other words, when a later event changed what the learner
   * should do about it (a pause diagnosis whose client turned out to fence its writes needs no advice to fence).
   */
  reword(kind: DiagnosisKind, subject: string, said: Words): void {
    const seen = this.byKey.get(`${kind}\u0000${subject}`);
    if (!seen) return;
    seen.message = english(said);
    seen.words = said;
  }

  has(kind: DiagnosisKind): boolean {
    return this.list.some((d) => d.kind === kind);
  }

  /** A copy in order of first proof, so a verdict never shares mutable state with the checker. */
  snapshot(): Diagnosis[] {
    return [...this.list]
      .sort((a, b) => (a.seqs.at(-1) ?? 0) - (b.seqs.at(-1) ?? 0))
      .map((d) => ({ ...d, seqs: [...d.seqs], window: { ...d.window }, clients: [...d.clients] }));
  }
}
