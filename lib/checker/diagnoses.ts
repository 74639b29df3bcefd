import type { CheckName, Diagnosis, DiagnosisKind, TimeWindow } from './types';
import { sortedUnique } from './format';

export interface DiagnosisInput {
  kind: DiagnosisKind;
  check: CheckName;
  message: string;
  seqs: readonly number[];
  window: TimeWindow;
  clients: readonly number[];
  /** What makes two findings "the same bug" beyond their kind, e.g. the client and key. */
  subject: string;
}

/**
 * Collects diagnoses. The same bug tends to repeat (every execution of a job
 * with too short a TTL), so repeats of one kind and subject only bump a
 * counter: the message keeps describing the first, which the timeline marks.
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
      return;
    }
    if (this.list.length >= this.max) return;
    const diagnosis: Diagnosis = {
      kind: input.kind,
      check: input.check,
      message: input.message,
      seqs: sortedUnique(input.seqs),
      window: { ...input.window },
      clients: sortedUnique(input.clients),
      occurrences: 1,
    };
    this.byKey.set(key, diagnosis);
    this.list.push(diagnosis);
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
