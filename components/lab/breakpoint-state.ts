/**
 * The learner's breakpoint as the page knows it: the moment chosen ("pause the
 * run when …", sent with every Run and to the run going on), and whether the
 * run stands at it now — read from the run's own notes as they arrive
 * (runNotes.breakpointHit, then Continue's or Step's), so every tab watching
 * the lab sees the same stop, and a tab that joins mid-stop too.
 */
import type { HistoryEvent } from '@/lib/history';
import type { Trigger } from '@/lib/scenario';
import type { Words } from '@/lib/words';

export interface BreakpointStop {
  runId: string;
  /** The note's seq and lab time: where the timeline marks it. */
  seq: number;
  t: number;
  /** "Stopped at your breakpoint: …", in English and as data. */
  text: string;
  words: Words;
}

const HIT = 'runNotes.breakpointHit';
const GONE_ON = new Set(['runNotes.breakpointContinue', 'runNotes.breakpointStep']);

/** The stop after `events` (in seq order): a new stop, or none once the run went on. */
export function nextBreakpointStop(current: BreakpointStop | null, events: readonly HistoryEvent[]): BreakpointStop | null {
  let stop = current;
  for (const e of events) {
    if (e.type !== 'console' || e.client !== 0 || !e.words || e.runId === undefined) continue;
    if (e.words.key === HIT) stop = { runId: e.runId, seq: e.seq, t: e.t, text: e.text, words: e.words };
    else if (stop && e.runId === stop.runId && GONE_ON.has(e.words.key)) stop = null;
  }
  return stop;
}

/** The moments a learner can choose, for `clients` clients and `nodes` nodes: each a trigger and its option id. */
export function breakpointChoices(clients: number, nodes: number): { id: string; when: Trigger }[] {
  // Any client first: which client gets the lock first is the run's to decide.
  const out: { id: string; when: Trigger }[] = [
    { id: 'lock-any', when: { on: 'lock-acquired', nth: 1 } },
    { id: 'enter-any', when: { on: 'job-enter', nth: 1 } },
    { id: 'exit-any', when: { on: 'job-exit', nth: 1 } },
  ];
  for (let client = 1; client <= clients; client++) {
    out.push({ id: `lock-${client}`, when: { on: 'lock-acquired', client, nth: 1 } });
    out.push({ id: `enter-${client}`, when: { on: 'job-enter', client, nth: 1 } });
    out.push({ id: `exit-${client}`, when: { on: 'job-exit', client, nth: 1 } });
    out.push({ id: `answered-${client}`, when: { on: 'command-answered', client, command: '*', nth: 1 } });
  }
  // A vote: a node answering OK to a client's SET (Redlock's per-node acquire).
  for (let node = 1; node <= nodes; node++) out.push({ id: `vote-${node}`, when: { on: 'command-answered', command: 'SET', reply: 'OK', node, nth: 1 } });
  return out;
}
