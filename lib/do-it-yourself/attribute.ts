/**
 * "Did the learner's own faults make the break?" — the verdict of a Do it
 * yourself run, read from the run's history and the checker's verdict.
 *
 * The learner's faults are the nemesis operations that succeeded during the
 * run and that no scenario step asked for (a step writes its `scenario` line
 * just before its operation). The violation's moment is when the checker's
 * counter-example for the lesson's diagnosis begins (two holders at once, the
 * stale write, the second execution). The step that did it is the learner's
 * last fault before that moment; a fault after it cannot have caused it.
 * Who held the lock at the fault is read from lib/lock-ops, as every view is.
 */
import type { DiagnosisKind, Verdict } from '../checker/types';
import type { FaultOp } from '../faults/catalogue';
import type { HistoryEvent, NemesisEvent } from '../history';
import { LockOpReader } from '../lock-ops/acquires';
import { faultWords } from '../scenario-words';
import type { FaultInput } from '../faults/inputs';
import { duration, words, type Words } from '../words';

export type HandOutcome =
  /** The lesson's violation, after (and so through) a fault of the learner's. */
  | 'done'
  /** The lesson's violation, but every fault of the learner's came after it. */
  | 'before-your-faults'
  /** The lesson's violation with no fault of the learner's in the run. */
  | 'no-faults'
  /** The run broke, but not the way this lesson teaches. */
  | 'other-violation'
  /** The lock ran out while the run stood at the breakpoint: the learner's pause, not their fault, broke it. */
  | 'ran-out-at-breakpoint'
  /** No violation; the learner's faults came after the holder released. */
  | 'after-release'
  /** No violation. */
  | 'no-violation';

export interface HandFaultSeen {
  seq: number;
  t: number;
  op: FaultOp;
  node?: number;
  client?: number;
}

export interface Attribution {
  outcome: HandOutcome;
  /** The learner's fault that made the break (`done`), or the first one (`before-your-faults`, `after-release`). */
  fault: HandFaultSeen | null;
  /** The client that held the lock when that fault landed, if one did. */
  holder: number | null;
  /** Said for the learner, in any language. */
  words: Words;
}

export interface AttributionInput {
  /** The lab's history (events of other runs are ignored). */
  history: readonly HistoryEvent[];
  verdict: Verdict;
  runId: string;
  /** Lab clock at the run's start: times are said from it, as the timeline does. */
  startedAt: number;
  /** The violation the lesson teaches. */
  diagnosis: DiagnosisKind;
}

/** The faults the learner injected during the run, in order; the scenario's own steps are left out. */
export function learnerFaults(history: readonly HistoryEvent[], runId: string, startedAt: number): HandFaultSeen[] {
  const inRun = (e: HistoryEvent) => (e.runId === undefined ? e.t >= startedAt : e.runId === runId);
  const lastT = Math.max(startedAt, ...history.filter((e) => e.runId === runId).map((e) => e.t));
  // A scenario step writes its line, then its operation's invoke/ok: count the steps announced per fault op.
  const announced = new Map<string, number>();
  const scenarios = new Set<string>();
  const out: HandFaultSeen[] = [];
  for (const e of history) {
    if (!inRun(e) || e.t > lastT) continue;
    if (e.type === 'scenario') announced.set(e.step, (announced.get(e.step) ?? 0) + 1);
    if (e.type !== 'nemesis') continue;
    const key = `${e.op}|${e.target}`;
    if (e.phase === 'invoke') {
      const n = announced.get(e.op) ?? 0;
      if (n > 0) {
        announced.set(e.op, n - 1);
        scenarios.add(key);
      }
      continue;
    }
    if (scenarios.delete(key)) continue;
    // An operation without an invoke (a client fault carried out in the sandbox) follows its step's line directly.
    const n = announced.get(e.op) ?? 0;
    if (n > 0 && !history.some((o) => o.type === 'nemesis' && o.phase === 'invoke' && o.seq < e.seq && `${o.op}|${o.target}` === key && inRun(o))) {
      announced.set(e.op, n - 1);
      continue;
    }
    if (e.phase === 'ok') out.push(seen(e));
  }
  return out;
}

function seen(e: NemesisEvent): HandFaultSeen {
  return { seq: e.seq, t: e.t, op: e.op, ...(e.node !== undefined ? { node: e.node } : {}), ...(e.client !== undefined ? { client: e.client } : {}) };
}

/** Who held a granted lock at each moment of the run, as lib/lock-ops reads the history. */
function holderAt(history: readonly HistoryEvent[], runId: string, seq: number): number | null {
  const reader = new LockOpReader();
  const holding = new Map<number, number>();
  for (const e of history) {
    if (e.seq >= seq) break;
    if (e.runId !== runId) continue;
    for (const op of reader.observe(e)) {
      if (op.kind === 'decided' && op.outcome === 'granted') holding.set(op.acquire.client, op.t);
      else if ((op.kind === 'released' && !op.failed) || op.kind === 'ended') holding.delete(op.client);
    }
  }
  const first = [...holding.entries()].sort((a, b) => a[1] - b[1])[0];
  return first ? first[0] : null;
}

/** The last release of a lock before `seq` in the run: who released it. */
function releasedBefore(history: readonly HistoryEvent[], runId: string, seq: number): number | null {
  const reader = new LockOpReader();
  let who: number | null = null;
  for (const e of history) {
    if (e.seq >= seq) break;
    if (e.runId !== runId) continue;
    for (const op of reader.observe(e)) if (op.kind === 'released' && !op.failed) who = op.client;
  }
  return who;
}

/** Diagnoses that say a lock's TTL ran out under its holder: what a long stop at a breakpoint does by itself. */
const RAN_OUT: ReadonlySet<DiagnosisKind> = new Set<DiagnosisKind>(['ttl-shorter-than-job', 'pause-beyond-validity', 'section-outlived-lock']);

/**
 * How long the run stood at its breakpoints before `until` (lab ms): from each stop (the `breakpoint` mark the
 * worker writes) to the resume or step that ended it, or to `until` if none did yet.
 */
export function stoodAtBreakpoints(history: readonly HistoryEvent[], runId: string, until: number): number {
  let stood = 0;
  let since: number | null = null;
  for (const e of history) {
    if (e.runId !== runId || e.t > until) continue;
    if (e.type === 'scenario' && e.step === 'breakpoint') since = e.t;
    else if (since !== null && e.type === 'console' && (e.words?.key === 'runNotes.breakpointContinue' || e.words?.key === 'runNotes.breakpointStep')) {
      stood += e.t - since;
      since = null;
    }
  }
  return since === null ? stood : stood + (until - since);
}

const faultSaid = (f: HandFaultSeen) => ({ words: faultWords(f.op, { node: f.node, client: f.client } as FaultInput<FaultOp>) });

export function attributeBreak(input: AttributionInput): Attribution {
  const { history, verdict, runId, startedAt } = input;
  const faults = learnerFaults(history, runId, startedAt);
  const at = (f: HandFaultSeen) => duration(Math.max(0, f.t - startedAt));
  const diagnosis = verdict.diagnoses.find((d) => d.kind === input.diagnosis);
  if (!diagnosis) {
    if (verdict.valid === 'violated') {
      // A lock that ran out while every client stood frozen at the breakpoint: the stop was too long, not the fault wrong.
      const ranOut = verdict.diagnoses.find((d) => RAN_OUT.has(d.kind));
      const stood = ranOut ? stoodAtBreakpoints(history, runId, ranOut.window.to) : 0;
      if (ranOut && stood > 0) {
        return { outcome: 'ran-out-at-breakpoint', fault: null, holder: null, words: words('workspace.doItYourself.outcome.ranOutAtBreakpoint', { stood: duration(stood) }) };
      }
      return { outcome: 'other-violation', fault: null, holder: null, words: words('workspace.doItYourself.outcome.otherViolation') };
    }
    const first = faults[0];
    const released = first ? releasedBefore(history, runId, first.seq) : null;
    if (first && released !== null && holderAt(history, runId, first.seq) === null) {
      return { outcome: 'after-release', fault: first, holder: released, words: words('workspace.doItYourself.outcome.afterRelease', { fault: faultSaid(first), at: at(first), client: { client: released } }) };
    }
    return { outcome: 'no-violation', fault: null, holder: null, words: words('workspace.doItYourself.outcome.noViolation', { hasFaults: faults.length > 0 ? 'yes' : 'no' }) };
  }
  // The violation's moment: its check's counter-example when it is this diagnosis's, else the diagnosis's own window.
  const example = verdict.checks[diagnosis.check]?.counterExample;
  const moment = example ? Math.min(example.window.from, diagnosis.window.to) : diagnosis.window.from;
  const victim = diagnosis.clients[0] ?? null;
  const other = diagnosis.clients.find((c) => c !== victim) ?? null;
  if (faults.length === 0) return { outcome: 'no-faults', fault: null, holder: null, words: words('workspace.doItYourself.outcome.noFaults') };
  const before = faults.filter((f) => f.t <= moment);
  const cause = before[before.length - 1];
  if (!cause) {
    const first = faults[0]!;
    return { outcome: 'before-your-faults', fault: first, holder: null, words: words('workspace.doItYourself.outcome.beforeYourFaults', { fault: faultSaid(first), at: at(first), violationAt: duration(Math.max(0, moment - startedAt)) }) };
  }
  const holder = holderAt(history, runId, cause.seq);
  return {
    outcome: 'done',
    fault: cause,
    holder,
    // A safety break lets a second client in; a liveness break (a lock that never frees) keeps everyone out.
    words: words(diagnosis.check === 'liveness' ? 'workspace.doItYourself.outcome.doneForGood' : 'workspace.doItYourself.outcome.done', {
      fault: faultSaid(cause),
      at: at(cause),
      held: holder === null ? 'no' : 'yes',
      holder: { client: holder ?? victim ?? 1 },
      other: { client: other ?? (holder === 1 ? 2 : 1) },
    }),
  };
}
