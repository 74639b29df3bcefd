'use client';
/**
 * Who voted for whom, for a lock taken by several nodes' votes (Redlock):
 * the grid (votes-grid), what it shows in words — two holders at once, the
 * node that voted for both and why — a table of each holder's majority, and
 * every vote as text. All of it derived (lib/votes) from the events up to the
 * time-travel cursor, so it follows the cursor and shows a saved run alike.
 */
import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { clusterSize, deriveVotes, holdersAt, type AcquireAttempt, type VoteAnalysis } from '@/lib/votes';
import { useFormatDuration } from '@/components/lab/use-duration';
import { answerWords, clientWords, countWords, doubleVoteWords, holdingWords, nodeWords, outcomeWords, twoHoldersWords, votesWords, type VotesT } from './vote-words';
import { useLabStore } from '@/components/lab/lab-provider';
import { useShownRun } from '@/components/workspace/use-shown-run';
import { VotesGrid, clientSlot } from './votes-grid';
// The panel's header and legend are the timeline's, so the two views read as one panel in two modes.
import panel from './timeline.module.css';
import styles from './votes.module.css';

/** Attempts listed as text at most (the latest). */
const MAX_LISTED = 100;

export function VoteView({ defaultClients }: { defaultClients: number }) {
  const shown = useShownRun(defaultClients);
  const t = useTranslations('timeline.votes');
  const formatDuration = useFormatDuration();
  const setCursor = useLabStore((s) => s.actions.setCursor);
  const size = useMemo(() => clusterSize(shown.all), [shown.all]);
  const first = shown.all[0]?.t ?? shown.origin;
  const last = shown.all[shown.all.length - 1]?.t ?? first;
  const endT = shown.cursorT ?? last;
  const analysis = useMemo(() => deriveVotes(shown.visible, { nodes: size, endT }), [shown.visible, size, endT]);
  const at = (t: number) => formatDuration(t - shown.origin);

  const clients = useMemo(() => {
    const ids = new Set<number>(Array.from({ length: shown.clients }, (_, i) => i + 1));
    for (const a of analysis.attempts) ids.add(a.client);
    return [...ids].sort((a, b) => a - b);
  }, [shown.clients, analysis.attempts]);

  const holders = holdersAt(analysis, endT);
  const moment = shown.cursorT === null ? t('atEnd', { at: at(endT) }) : t('atMoment', { at: at(endT) });
  const now =
    holders.length === 0
      ? t('nobodyHolds', { moment })
      : t('holders', { moment, holders: holders.map((h) => holdingWords(t, h, analysis)).join('; ') });
  const gridLabel = t('gridLabel', {
    nodes: analysis.nodes.length,
    from: at(first),
    to: at(last),
    attempts: analysis.attempts.length,
    twoHolders: analysis.twoHolders.length,
  });

  return (
    <section className={styles.votes} aria-labelledby="votes-title" data-testid="votes-view" data-attempts={analysis.attempts.length}>
      <header className={panel.header}>
        <h2 id="votes-title" className={panel.title}>
          {t('title')}
        </h2>
        <Legend clients={clients} />
      </header>
      <div className={styles.findings} data-testid="votes-findings">
        {analysis.twoHolders.length === 0 ? (
          <p className={styles.muted}>
            {shown.cursorT === null ? t('noTwoHolders') : t('noTwoHoldersUpTo', { at: at(endT) })}
          </p>
        ) : (
          analysis.twoHolders.slice(0, 3).map((pair, i) => (
            <p key={i} className={styles.finding} data-testid="two-holders">
              {t.rich('twoHolders', {
                from: at(pair.from),
                to: pair.to === null ? t('now') : at(pair.to),
                words: twoHoldersWords(t, pair, analysis),
                strong: (chunks) => <strong>{chunks}</strong>,
              })}
            </p>
          ))
        )}
        {analysis.doubleVotes.slice(0, 3).map((d, i) => (
          <p key={`d-${i}`} className={styles.now} data-testid="double-vote">
            {doubleVoteWords(t, d, at)}
          </p>
        ))}
      </div>
      <p className={styles.now} data-testid="votes-now" aria-live="off">
        {now}
      </p>
      <VotesGrid
        analysis={analysis}
        clients={clients}
        extent={{ from: first, to: Math.max(last, first + 1) }}
        origin={shown.origin}
        cursorT={shown.cursorT}
        label={gridLabel}
        onPick={setCursor}
      />
      <MajorityTable analysis={analysis} at={at} endT={endT} />
      <details className={styles.asText}>
        <summary>{t('asText')}</summary>
        <AttemptList attempts={analysis.attempts} analysis={analysis} at={at} onShow={setCursor} />
      </details>
    </section>
  );
}

function Legend({ clients }: { clients: readonly number[] }) {
  const t = useTranslations('timeline.votes');
  return (
    <ul className={panel.legend} aria-label={t('legend.label')}>
      {clients.map((c) => (
        <li key={c} className={styles.client} data-slot={clientSlot(c)}>
          <span className={styles.swatch} aria-hidden="true" /> {t('legend.clientVote', { client: clientWords(t, c) })}
        </li>
      ))}
      <li>{t('legend.answers')}</li>
      <li>
        <span className={styles.swatch} data-kind="ghost" aria-hidden="true" /> {t('legend.ghost')}
      </li>
      <li>{t('legend.forgot')}</li>
      <li>
        <span className={styles.swatch} data-kind="band" aria-hidden="true" /> {t('legend.band')}
      </li>
    </ul>
  );
}

/** Each holder's majority, node by node: the shared node stands out. */
function MajorityTable({ analysis, at, endT }: { analysis: VoteAnalysis; at: (t: number) => string; endT: number }) {
  const t = useTranslations('timeline.votes');
  if (analysis.holdings.length === 0) return null;
  const rows = analysis.holdings.slice(-8);
  const sharedWith = (client: number, node: number) =>
    analysis.twoHolders.some((p) => p.shared.includes(node) && (p.first.client === client || p.second.client === client));
  return (
    <div className={styles.tableScroll}>
      <table className={styles.table} data-testid="votes-majorities">
        <caption>{t('table.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('table.holder')}</th>
            <th scope="col">{t('table.when')}</th>
            {analysis.nodes.map((n) => (
              <th key={n} scope="col">
                {nodeWords(t, n)}
              </th>
            ))}
            <th scope="col">{t('table.votes')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((h) => {
            const attempt = analysis.attempts[h.attemptId];
            const holdsNow = h.from <= endT && (h.to === null || h.to > endT);
            return (
              <tr key={`${h.client}-${h.attemptId}`} data-client={h.client} data-now={holdsNow || undefined}>
                <th scope="row">{clientWords(t, h.client)}</th>
                <td>
                  {at(h.from)}–{h.to === null ? t('now') : at(h.to)}
                  {h.endedBy === 'expired' ? ` ${t('table.lapsed')}` : ''}
                </td>
                {analysis.nodes.map((n) => {
                  const vote = attempt?.votes.find((v) => v.node === n);
                  const shared = h.nodes.includes(n) && sharedWith(h.client, n);
                  return (
                    <td key={n} data-shared={shared || undefined}>
                      {vote ? answerWords(t, vote.answer) : '—'}
                      {shared ? ` ${t('table.votedForBoth')}` : ''}
                    </td>
                  );
                })}
                <td>{countWords(t, h.nodes.length, analysis)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function AttemptList({ attempts, analysis, at, onShow }: { attempts: readonly AcquireAttempt[]; analysis: VoteAnalysis; at: (t: number) => string; onShow(t: number): void }) {
  const t: VotesT = useTranslations('timeline.votes');
  if (attempts.length === 0) return <p className={styles.muted}>{t('noAcquire')}</p>;
  const listed = attempts.slice(-MAX_LISTED);
  return (
    <ol className={styles.attempts} data-testid="votes-attempts">
      {attempts.length > listed.length && <li className={styles.muted}>{t('notListed', { n: attempts.length - listed.length })}</li>}
      {listed.map((a) => {
        const when = a.decidedT ?? Math.max(a.startT, ...a.votes.map((v) => v.t ?? v.sentT));
        const name = t('attemptName', { client: clientWords(t, a.client), n: a.number });
        return (
          <li key={a.id} data-outcome={a.outcome}>
            <time>{at(a.startT)}</time> {t('attemptLine', { name, votes: votesWords(t, a) || t('noAnswer'), outcome: outcomeWords(t, a, analysis) })}
            <button type="button" onClick={() => onShow(when)} aria-label={t('showMomentLabel', { name, outcome: a.outcome })}>
              {t('showMoment')}
            </button>
          </li>
        );
      })}
    </ol>
  );
}
