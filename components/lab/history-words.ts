/**
 * History events told in words, for the compact "recent history" list.
 * Only what changes the cluster is told here (nemesis operations and node
 * state changes); the timeline of issue 4 shows the rest.
 */
import { createTranslator, type useTranslations } from 'next-intl';
import type { NodeState } from '@/lib/cluster';
import { formatDuration as englishDuration } from '@/lib/durations';
import { FAULTS, faultKey, isRecovery, nodeStateAfter, toldBy } from '@/lib/faults/catalogue';
import type { HistoryEvent, NemesisEvent, NodeStateEvent, Scalar } from '@/lib/history';
import labWords from '@/messages/en/lab.json' with { type: 'json' };
import type { Words as WordsData } from '@/lib/words';

export type LabT = ReturnType<typeof useTranslations<'lab'>>;

/** The words of a line: the page's translator and duration format (English where none is given: tests, code outside a page). */
interface Words {
  t: LabT;
  duration: (ms: number) => string;
  /** A server's sentence in the page's language, from its words (a refusal's reason); without it, its English. */
  said?: (said: { message: string; words?: WordsData | undefined }) => string;
}

const ENGLISH: Words = {
  t: createTranslator({ locale: 'en', messages: { lab: labWords }, namespace: 'lab' }) as unknown as LabT,
  duration: englishDuration,
};

/** A server's sentence (a reason, what an operation did) in the page's language when it sent its words; else its English. */
function serverText(message: string, data: WordsData | undefined, { said }: Words): string {
  return said ? said({ message, words: data }) : message;
}


/** Who an operation hit, in the page's words where the event says it by number; else the server's words. */
function targetWords(event: NemesisEvent, { t }: Words): string {
  const { node, client } = event;
  const hits = FAULTS[event.op].reply;
  if (hits === 'link' && node !== undefined && client !== undefined) return t('target.link', { client, node });
  if (hits === 'node' && node !== undefined) return t('target.node', { n: node });
  if (hits === 'client' && client !== undefined) return t('target.client', { n: client });
  return event.target;
}

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

/** What an operation did, from its catalogue entry, when the server sent no sentence of its own. */
function fallbackOkWords(event: NemesisEvent, words: Words): string {
  const { t, duration } = words;
  const target = targetWords(event, words);
  const did = t(`op.${faultKey(event.op)}.did`);
  const told = toldBy(event.op);
  const ms = told && durationArg(event.args, told.arg);
  if (!told || ms === null) return t('history.did', { target, did });
  if (told.as === 'willRestart') return t('history.willRestart', { target, duration: duration(ms) });
  return t(told.as === 'didBy' ? 'history.didBy' : 'history.didFor', { target, did, duration: duration(ms) });
}

function describeNemesis(event: NemesisEvent, words: Words): HistoryLine | null {
  const base = { seq: event.seq, t: event.t };
  // The completion says what happened; the invoke alone adds nothing to a compact list.
  if (event.phase === 'invoke') return null;
  if (event.phase === 'fail') {
    const attempt = words.t(`op.${faultKey(event.op)}.attempt`);
    const target = targetWords(event, words);
    // The reason is the server's, in the page's language when it sent its words.
    const why = event.detail && serverText(event.detail, event.detailWords, words);
    const text = why ? words.t('history.refusedWhy', { attempt, target, why }) : words.t('history.refused', { attempt, target });
    return { ...base, text, tone: 'refused' };
  }
  // The server words what each operation did ("Node 2 killed with SIGKILL"); ours are the fallback.
  const text = event.detail !== undefined ? serverText(event.detail, event.detailWords, words) : fallbackOkWords(event, words);
  return { ...base, text, tone: isRecovery(event.op) ? 'recovery' : 'fault' };
}

/** "Node 3 is down: killed (SIGKILL)", "Nodes 1, 2, 3 are up: started" (the reason is the server's). */
function nodesWords(nodes: readonly number[], state: NodeState, reason: string, reasonWords: WordsData | undefined, words: Words): string {
  const { t } = words;
  const sorted = [...nodes].sort((a, b) => a - b);
  const who = sorted.length === 1 ? t('target.node', { n: sorted[0] ?? 0 }) : t('history.nodes', { list: sorted.join(t('history.listSeparator')) });
  const args = { who, count: sorted.length, state: t(`state.${state}`) };
  return reason ? t('history.nodeStateWhy', { ...args, why: serverText(reason, reasonWords, words) }) : t('history.nodeState', args);
}

/** One line for the event, or null when the compact list leaves it out. */
export function describeEvent(event: HistoryEvent, words: Words = ENGLISH): HistoryLine | null {
  switch (event.type) {
    case 'nemesis':
      return describeNemesis(event, words);
    case 'guard':
      // The lab stepped in on a node the learner's code was harming; the detail is already in a learner's words (the server's).
      return { seq: event.seq, t: event.t, text: words.t('history.guard', { node: words.t('target.node', { n: event.node }), detail: serverText(event.detail, event.detailWords, words) }), tone: 'info' };
    case 'node': {
      const tone: HistoryTone = event.state === 'up' ? 'recovery' : 'fault';
      return { seq: event.seq, t: event.t, text: nodesWords([event.node], event.state, event.reason, event.reasonWords, words), tone };
    }
    default:
      return null;
  }
}

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
      nodeStateAfter(other.op) === event.state &&
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

/**
 * The newest `limit` lines, newest first. A node's state change caused by
 * a nemesis operation is told once (by the operation); neighbouring nodes
 * that changed the same way for the same reason at about the same time (the
 * lab starting) share one line, each node once: the same node changing again
 * later (another run's fresh lab) is another line.
 */
export function recentLines(
  history: readonly HistoryEvent[],
  limit: number,
  t?: LabT,
  duration?: (ms: number) => string,
  said?: Words['said'],
): HistoryLine[] {
  const words: Words = t && duration ? { t, duration, ...(said ? { said } : {}) } : ENGLISH;
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
        group.line.text = nodesWords(group.nodes, event.state, event.reason, event.reasonWords, words);
        group.line.t = event.t;
        continue;
      }
    }
    if (lines.length >= limit) break;
    const line = describeEvent(event, words);
    if (!line) continue;
    lines.push(line);
    group = event.type === 'node' ? { line, state: event.state, reason: event.reason, nodes: [event.node] } : null;
  }
  return lines;
}
