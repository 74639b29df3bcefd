/**
 * The votes in a learner's words: what the vote view says, and its text
 * alternative. Times are written from the run's start, like the timeline.
 */
import { clientLabel, nodeLabel } from '../cluster';
import { formatTime } from '../checker/format';
import type { AcquireAttempt, DoubleVote, ForgetCause, Holding, TwoHolders, VoteAnalysis, VoteAnswer } from './types';

/** "Node 3", "Nodes 1, 2, 3", "no node". */
export function nodeList(nodes: readonly number[]): string {
  if (nodes.length === 0) return 'no node';
  if (nodes.length === 1) return nodeLabel(nodes[0] ?? 0);
  return `Nodes ${nodes.join(', ')}`;
}

export const ANSWER_WORDS: Record<VoteAnswer, string> = {
  ok: 'OK',
  nil: 'nil',
  error: 'error',
  timeout: 'timeout',
  pending: 'waiting',
};

const FORGOT_WORDS: Record<ForgetCause, string> = {
  'restarted-empty': 'restarted empty',
  'clock-jump': 'had its clock jump forward',
  failover: 'was failed over to a replica that never had it',
};

export function forgetWords(cause: ForgetCause): string {
  return FORGOT_WORDS[cause];
}

/** "3 of 5, a majority" / "2 of 5, not a majority". */
export function countWords(held: number, analysis: Pick<VoteAnalysis, 'nodes' | 'majority'>): string {
  return `${held} of ${analysis.nodes.length}, ${held >= analysis.majority ? 'a majority' : 'not a majority'}`;
}

/** "Client 1 holds Nodes 1, 2, 3 (3 of 5, a majority)". */
export function holdingWords(h: Holding, analysis: Pick<VoteAnalysis, 'nodes' | 'majority'>, tense: 'holds' | 'held' = 'holds'): string {
  return `${clientLabel(h.client)} ${tense} ${nodeList(h.nodes)} (${countWords(h.nodes.length, analysis)})`;
}

/**
 * Two holders at once, in one sentence:
 * "Client 1 held Nodes 1, 2, 3; Client 2 held Nodes 3, 4, 5 — Node 3 voted for both (it restarted empty and forgot its vote for Client 1)."
 */
export function twoHoldersWords(pair: TwoHolders, analysis: Pick<VoteAnalysis, 'nodes' | 'majority'>): string {
  const { first, second } = pair;
  const side = (h: Holding) => `${clientLabel(h.client)} held ${nodeList(h.nodes)}${h.majority ? '' : ` (${countWords(h.nodes.length, analysis)})`}`;
  const head = `${side(first)}; ${side(second)}`;
  if (pair.shared.length === 0) {
    const minority = [first, second].filter((h) => !h.majority).map((h) => clientLabel(h.client));
    const why = minority.length > 0 ? `: ${minority.join(' and ')} never had a majority` : '';
    return `${head} — no node voted for both${why}.`;
  }
  const voted = `${nodeList(pair.shared)} voted for both`;
  const reasons = pair.shared.map((node) => {
    const d = pair.doubleVotes.find((v) => v.node === node);
    if (!d?.forgot) return null;
    return `${pair.shared.length > 1 ? `${nodeLabel(node)} ` : 'it '}${forgetWords(d.forgot.cause)} and forgot its vote for ${clientLabel(d.first.client)}`;
  }).filter((r): r is string => r !== null);
  return `${head} — ${voted}${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}.`;
}

/** "Node 3 voted twice: for Client 1 at 410 ms, then for Client 2 at 820 ms — it restarted empty at 630 ms and forgot its first vote." */
export function doubleVoteWords(d: DoubleVote, at: (t: number) => string = formatTime): string {
  const head = `${nodeLabel(d.node)} voted twice: for ${clientLabel(d.first.client)} at ${at(d.first.t)}, then for ${clientLabel(d.second.client)} at ${at(d.second.t)}`;
  if (!d.forgot) return `${head}, while ${clientLabel(d.first.client)} still counted the first vote.`;
  return `${head} — it ${forgetWords(d.forgot.cause)} at ${at(d.forgot.t)} and forgot its first vote.`;
}

/** "Node 1 OK, Node 2 OK, Node 3 nil, Node 4 error, Node 5 timeout". */
export function votesWords(attempt: AcquireAttempt): string {
  return attempt.votes.map((v) => `${nodeLabel(v.node)} ${ANSWER_WORDS[v.answer]}`).join(', ');
}

/** "acquired with 3 of 5 (quorum 3)", "failed with 2 of 5", "collecting votes". */
export function outcomeWords(attempt: AcquireAttempt, analysis: Pick<VoteAnalysis, 'nodes' | 'majority'>): string {
  const quorum = attempt.quorum !== null ? ` (it counted to ${attempt.quorum})` : '';
  if (attempt.outcome === 'collecting') return `collecting votes: ${attempt.granted.length} of ${analysis.nodes.length} so far`;
  return `${attempt.outcome} with ${countWords(attempt.granted.length, analysis)}${quorum}`;
}
