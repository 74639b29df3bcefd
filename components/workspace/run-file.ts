/**
 * A run as a file: history + code + scenario + verdict, exported as JSON and
 * opened again later, even with no lab on the server. Opening re-checks the
 * history in the browser (the checker is pure), so the verdict shown does
 * not depend on trusting the file's.
 */
import { check, type Verdict } from '@/lib/checker';
import type { HistoryEvent } from '@/lib/history';
import { isWords } from '@/lib/words';
import type { RecordedRun, RunData } from '@/components/lab/run-state';
import { EVENT_TYPES, MAX_RUN_FILE_BYTES, RUN_FILE_FORMAT } from '@/lib/run-file-format';

export { MAX_RUN_FILE_BYTES, RUN_FILE_FORMAT };

/** The run's slice of the lab history: from its start to now, or to where the page stops showing it (`untilT`, exclusive). */
export function runHistory(history: readonly HistoryEvent[], startedAt: number | null, untilT: number | null = null): HistoryEvent[] {
  return history.filter((e) => (startedAt === null || e.t >= startedAt) && (untilT === null || e.t < untilT));
}

export function recordRun(input: { lesson: string; run: RunData; history: readonly HistoryEvent[]; now?: Date }): RecordedRun {
  const { run } = input;
  return {
    format: RUN_FILE_FORMAT,
    version: 1,
    exportedAt: (input.now ?? new Date()).toISOString(),
    lesson: input.lesson,
    code: run.code ?? '',
    scenario: run.scenario,
    checker: run.checker,
    info: run.info,
    history: runHistory(input.history, run.info?.startedAt ?? null, run.shownUntilT),
    verdict: run.verdict,
    ended: run.ended,
  };
}

export const runFileName = (run: RecordedRun): string =>
  `lock-lab-${run.lesson}-${run.exportedAt.replace(/[:.]/g, '-').replace(/Z$/, '')}.json`;

/** Why a file is not a run, as data: the page says it in its language (messages `workspace.runFile.<kind>`). */
export type RunFileProblem =
  | { kind: 'too-big' }
  | { kind: 'not-json' }
  | { kind: 'not-a-run' }
  | { kind: 'version'; version: string }
  | { kind: 'no-history' }
  | { kind: 'unknown-events'; count: number };

/** `message` is the English sentence (logs, tests); a page shows `problem` in its own language. */
export type ParseResult = { ok: true; run: RecordedRun } | { ok: false; problem: RunFileProblem; message: string };

/** The English sentence for a problem (messages/en/workspace.json, `runFile`, says the same). */
function englishProblem(problem: RunFileProblem): string {
  switch (problem.kind) {
    case 'too-big':
      return 'This file is too big to be a Lock Lab run.';
    case 'not-json':
      return 'This file is not JSON, so it is not a run exported from Lock Lab.';
    case 'not-a-run':
      return 'This JSON file is not a run exported from Lock Lab.';
    case 'version':
      return `This run file has version ${problem.version}; this Lock Lab reads version 1.`;
    case 'no-history':
      return 'This run file has no history.';
    case 'unknown-events':
      return `This run file's history has ${problem.count} events Lock Lab does not understand.`;
  }
}

const refuse = (problem: RunFileProblem): ParseResult => ({ ok: false, problem, message: englishProblem(problem) });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEvent(value: unknown): value is HistoryEvent {
  return isRecord(value) && typeof value.seq === 'number' && typeof value.t === 'number' && typeof value.type === 'string' && EVENT_TYPES.has(value.type);
}

/**
 * The history's sentences as data (`detailWords`, `reasonWords`, a console note's `words`) are optional: a malformed
 * one (a file edited by hand, or from another program) is dropped, the event and its English kept.
 */
const WORDS_FIELDS = ['detailWords', 'reasonWords', 'words'] as const;

function withValidWords(event: HistoryEvent): HistoryEvent {
  const record = event as unknown as Record<string, unknown>;
  const bad = WORDS_FIELDS.filter((field) => field in record && !isWords(record[field]));
  if (bad.length === 0) return event;
  const kept = { ...record };
  for (const field of bad) delete kept[field];
  return kept as unknown as HistoryEvent;
}

/** Reads a run file; refuses anything that is not one, in words a learner can act on. */
export function parseRunFile(text: string): ParseResult {
  if (text.length > MAX_RUN_FILE_BYTES) return refuse({ kind: 'too-big' });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return refuse({ kind: 'not-json' });
  }
  if (!isRecord(data) || data.format !== RUN_FILE_FORMAT) {
    return refuse({ kind: 'not-a-run' });
  }
  if (data.version !== 1) return refuse({ kind: 'version', version: String(data.version) });
  if (!Array.isArray(data.history)) return refuse({ kind: 'no-history' });
  const history = data.history.filter(isEvent).map(withValidWords);
  if (history.length !== data.history.length) {
    return refuse({ kind: 'unknown-events', count: data.history.length - history.length });
  }
  history.sort((a, b) => a.seq - b.seq);
  const run: RecordedRun = {
    format: RUN_FILE_FORMAT,
    version: 1,
    exportedAt: typeof data.exportedAt === 'string' ? data.exportedAt : new Date(0).toISOString(),
    lesson: typeof data.lesson === 'string' ? data.lesson : 'unknown',
    code: typeof data.code === 'string' ? data.code : '',
    scenario: isRecord(data.scenario) ? (data.scenario as unknown as RecordedRun['scenario']) : null,
    checker: isRecord(data.checker) ? (data.checker as RecordedRun['checker']) : null,
    info: isRecord(data.info) ? (data.info as unknown as RecordedRun['info']) : null,
    history,
    verdict: isRecord(data.verdict) ? (data.verdict as unknown as Verdict) : null,
    ended: isRecord(data.ended) ? endedWithValidWords(data.ended as unknown as NonNullable<RecordedRun['ended']>) : null,
  };
  return { ok: true, run };
}

/** A recorded end whose sentences' words are not well-formed keeps its English only. */
function endedWithValidWords(ended: NonNullable<RecordedRun['ended']>): RecordedRun['ended'] {
  const outcome = ended.outcome as unknown;
  if (!isRecord(outcome)) return ended;
  if ('errorWords' in outcome && !isWords(outcome.errorWords)) delete outcome.errorWords;
  if (Array.isArray(outcome.clients)) for (const c of outcome.clients) if (isRecord(c) && 'errorWords' in c && !isWords(c.errorWords)) delete c.errorWords;
  return ended;
}

/** The lab-clock time a recorded run counts from: its start, or its first event for a file without one. */
export function runOrigin(run: RecordedRun): number {
  return run.info?.startedAt ?? run.history[0]?.t ?? 0;
}

/** The verdict of a recorded run, computed here from its history (its times in words count from the run's start). */
export function recheck(run: RecordedRun): Verdict {
  const settings = run.checker ?? {};
  return check(run.history, { ...settings, final: true, timeOrigin: runOrigin(run) });
}
