/**
 * The votes in the page's language: the sentences of lib/votes/words.ts
 * (which stay the English reference for tests and the checker's side), built
 * from the analysis with the `timeline.votes` catalogue. Times are written
 * from the run's start, like the timeline.
 */
import type { useTranslations } from 'next-intl';
import type { AcquireAttempt, DoubleVote, ForgetCause, Holding, TwoHolders, VoteAnalysis, VoteAnswer } from '@/lib/votes';

export type VotesT = ReturnType<typeof useTranslations<'timeline.votes'>>;
type Counted = Pick<VoteAnalysis, 'nodes' | 'majority'>;

const FORGOT_KEYS = { 'restarted-empty': 'restartedEmpty', 'clock-jump': 'clockJump', failover: 'failover' } as const satisfies Record<ForgetCause, string>;

export function nodeWords(t: VotesT, n: number): string {
  return t('node', { n });
}

export function clientWords(t: VotesT, n: number): string {
  return t('client', { n });
}

export function answerWords(t: VotesT, answer: VoteAnswer): string {
  return t(`answer.${answer}`);
}

/** "Node 3", "Nodes 1, 2, 3", "no node". */
export function nodeListWords(t: VotesT, nodes: readonly number[]): string {
  if (nodes.length === 0) return t('noNode');
  if (nodes.length === 1) return nodeWords(t, nodes[0] ?? 0);
  return t('nodes', { list: nodes.join(t('listSeparator')) });
}

/** "3 of 5, a majority" / "2 of 5, not a majority". */
export function countWords(t: VotesT, held: number, analysis: Counted): string {
  return held >= analysis.majority ? t('countMajority', { held, total: analysis.nodes.length }) : t('countMinority', { held, total: analysis.nodes.length });
}

/** "Client 1 holds Nodes 1, 2, 3 (3 of 5, a majority)". */
export function holdingWords(t: VotesT, h: Holding, analysis: Counted): string {
  return t('holds', { client: clientWords(t, h.client), nodes: nodeListWords(t, h.nodes), count: countWords(t, h.nodes.length, analysis) });
}

/** "Client 1 held Nodes 1, 2, 3; Client 2 held Nodes 3, 4, 5 — Node 3 voted for both (it restarted empty and forgot its vote for Client 1)." */
export function twoHoldersWords(t: VotesT, pair: TwoHolders, analysis: Counted): string {
  const { first, second } = pair;
  const side = (h: Holding) =>
    h.majority
      ? t('held', { client: clientWords(t, h.client), nodes: nodeListWords(t, h.nodes) })
      : t('heldCounted', { client: clientWords(t, h.client), nodes: nodeListWords(t, h.nodes), count: countWords(t, h.nodes.length, analysis) });
  const head = t('pair', { first: side(first), second: side(second) });
  if (pair.shared.length === 0) {
    const minority = [first, second].filter((h) => !h.majority).map((h) => clientWords(t, h.client));
    if (minority.length === 0) return t('noSharedNode', { head });
    return t('noSharedNodeWhy', { head, who: minority.join(t('and')), count: minority.length });
  }
  const reasons = pair.shared
    .map((node) => {
      const d = pair.doubleVotes.find((v) => v.node === node);
      if (!d?.forgot) return null;
      const why = t(`forgot.${FORGOT_KEYS[d.forgot.cause]}`);
      const client = clientWords(t, d.first.client);
      return pair.shared.length > 1 ? t('reasonNode', { node: nodeWords(t, node), why, client }) : t('reasonIt', { why, client });
    })
    .filter((r): r is string => r !== null);
  const voted = t('votedForBoth', { nodes: nodeListWords(t, pair.shared) });
  return reasons.length > 0 ? t('sharedWhy', { head, voted, reasons: reasons.join('; ') }) : t('shared', { head, voted });
}

/** "Node 3 voted twice: for Client 1 at 410 ms, then for Client 2 at 820 ms — it restarted empty at 630 ms and forgot its first vote." */
export function doubleVoteWords(t: VotesT, d: DoubleVote, at: (t: number) => string): string {
  const args = { node: nodeWords(t, d.node), first: clientWords(t, d.first.client), firstAt: at(d.first.t), second: clientWords(t, d.second.client), secondAt: at(d.second.t) };
  if (!d.forgot) return t('doubleVote', args);
  return t('doubleVoteForgot', { ...args, why: t(`forgot.${FORGOT_KEYS[d.forgot.cause]}`), forgotAt: at(d.forgot.t) });
}

/** "Node 1 OK, Node 2 OK, Node 3 nil". */
export function votesWords(t: VotesT, attempt: AcquireAttempt): string {
  return attempt.votes.map((v) => t('vote', { node: nodeWords(t, v.node), answer: answerWords(t, v.answer) })).join(t('listSeparator'));
}

/** "acquired with 3 of 5, a majority (it counted to 3)", "collecting votes: 2 of 5 so far". */
export function outcomeWords(t: VotesT, attempt: AcquireAttempt, analysis: Counted): string {
  if (attempt.outcome === 'collecting') return t('collecting', { granted: attempt.granted.length, total: analysis.nodes.length });
  const count = countWords(t, attempt.granted.length, analysis);
  return attempt.quorum !== null ? t('outcomeQuorum', { outcome: attempt.outcome, count, quorum: attempt.quorum }) : t('outcome', { outcome: attempt.outcome, count });
}
