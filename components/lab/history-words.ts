/**
 * History events told in words, for the compact "recent history" list.
 * Only what changes the cluster is told here (nemesis operations and node
 * state changes); the timeline of issue 4 shows the rest.
 */
import type { NodeState } from '@/lib/cluster';
import { formatDuration } from '@/lib/durations';
import { FAULTS, isRecovery } from '@/lib/faults/catalogue';
import type { HistoryEvent, NemesisEvent, NemesisOp, NodeStateEvent, Scalar } from '@/lib/history';

export type HistoryTone = 'fault' | 'recovery' | 'refused' | 'info';

export interface HistoryLine {
  seq: number;
  /** Lab time of the event, ms. */
  t: number;
  text: string;
  tone: HistoryTone;
}


function durationArg(args: Record<string, Scalar>, name: string): number | null {
  const value = args[name];
  return typeof value === 'number' && value > 0 ? value : null;
}

function fallbackOkWords(event: NemesisEvent): string {
  const words = FAULTS[event.op];
  const jump = durationArg(event.args, 'jumpMs');
  const delay = durationArg(event.args, 'delayMs');
  if (event.op === 'node-restart' && delay !== null) return `${event.target} will restart in ${formatDuration(delay)}`;
  if (event.op === 'node-clock-jump' && jump !== null) return `${event.target} ${words.did} by ${formatDuration(jump)}`;
  if ((event.op === 'link-delay' || event.op === 'replication-delay') && delay !== null) {
    return `${event.target} ${words.did} by ${formatDuration(delay)}`;
  }
  if (event.op === 'client-pause' && delay !== null) return `${event.target} ${words.did} for ${formatDuration(delay)}`;
  return `${event.target} ${words.did}`;
}

function describeNemesis(event: NemesisEvent): HistoryLine | null {
  const base = { seq: event.seq, t: event.t };
  // The completion says what happened; the invoke alone adds nothing to a compact list.
  if (event.phase === 'invoke') return null;
  if (event.phase === 'fail') {
    const why = event.detail ? `: ${event.detail}` : '';
    return { ...base, text: `Refused to ${FAULTS[event.op].attempt} ${event.target}${why}`, tone: 'refused' };
  }
  // The server words what each operation did ("Node 2 killed with SIGKILL"); ours are the fallback.
  return { ...base, text: event.detail ?? fallbackOkWords(event), tone: isRecovery(event.op) ? 'recovery' : 'fault' };
}

/** One line for the event, or null when the compact list leaves it out. */
export function describeEvent(event: HistoryEvent): HistoryLine | null {
  switch (event.type) {
    case 'nemesis':
      return describeNemesis(event);
    case 'guard':
      // The lab stepped in on a node the learner's code was harming; the detail is already in a learner's words.
      return { seq: event.seq, t: event.t, text: `Node ${event.node}: ${event.detail}`, tone: 'info' };
    case 'node': {
      const tone: HistoryTone = event.state === 'up' ? 'recovery' : 'fault';
      const why = event.reason ? `: ${event.reason}` : '';
      return { seq: event.seq, t: event.t, text: `Node ${event.node} is ${event.state}${why}`, tone };
    }
    default:
      return null;
  }
}

/** The state each node operation leaves its node in. */
const NODE_OP_RESULT: Partial<Record<NemesisOp, NodeState>> = {
  'node-kill': 'down',
  'node-restart': 'up',
  'node-pause': 'paused',
  'node-resume': 'up',
};
/**
 * A node's state change is an operation's effect when it is the state the
 * operation leads to and happens while the operation runs: at most this long
 * before its completion (a restart waits for the node to answer), and a
 * moment after it (the supervisor may notice a little late).
 */
const CAUSE_BEFORE_MS = 2_000;
const CAUSE_AFTER_MS = 250;

/**
 * A state change the user caused is already told by the operation's own line;
 * so is the down and up of a restart by the node guard (its line comes once
 * the node is back).
 */
function explainedByNemesis(history: readonly HistoryEvent[], index: number, event: NodeStateEvent): boolean {
  for (let j = Math.max(0, index - 8); j < Math.min(history.length, index + 9); j++) {
    const other = history[j];
    if (
      other?.type === 'guard' &&
      other.action === 'restarted' &&
      other.node === event.node &&
      event.state !== 'paused' &&
      event.t >= other.t - CAUSE_BEFORE_MS &&
      event.t <= other.t
    ) {
      return true;
    }
    if (
      other?.type === 'nemesis' &&
      other.phase === 'ok' &&
      other.node === event.node &&
      NODE_OP_RESULT[other.op] === event.state &&
      event.t >= other.t - CAUSE_BEFORE_MS &&
      event.t <= other.t + CAUSE_AFTER_MS
    ) {
      return true;
    }
  }
  return false;
}

/** How far apart two node changes may be and still be told as one line ("Nodes 1, 2 and 3 are up"). */
const GROUP_WITHIN_MS = 2_000;

function nodeList(nodes: readonly number[]): string {
  return `Nodes ${[...nodes].sort((a, b) => a - b).join(', ')}`;
}

/**
 * The newest `limit` lines, newest first. A node's state change caused by
 * a nemesis operation is told once (by the operation); neighbouring nodes
 * that changed the same way for the same reason at about the same time (the
 * lab starting) share one line, each node once: the same node changing again
 * later (another run's fresh lab) is another line.
 */
export function recentLines(history: readonly HistoryEvent[], limit: number): HistoryLine[] {
  const lines: HistoryLine[] = [];
  let group: { line: HistoryLine; state: string; reason: string; nodes: number[] } | null = null;
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i];
    if (event === undefined) continue;
    if (event.type === 'node') {
      if (explainedByNemesis(history, i, event)) continue;
      const joins =
        group !== null &&
        group.state === event.state &&
        group.reason === event.reason &&
        !group.nodes.includes(event.node) &&
        group.line.t - event.t <= GROUP_WITHIN_MS;
      if (group && joins) {
        group.nodes.push(event.node);
        const why = event.reason ? `: ${event.reason}` : '';
        group.line.text = `${nodeList(group.nodes)} are ${event.state}${why}`;
        group.line.t = event.t;
        continue;
      }
    }
    if (lines.length >= limit) break;
    const line = describeEvent(event);
    if (!line) continue;
    lines.push(line);
    group = event.type === 'node' ? { line, state: event.state, reason: event.reason, nodes: [event.node] } : null;
  }
  return lines;
}
