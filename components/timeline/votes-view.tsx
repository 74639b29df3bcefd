'use client';
/**
 * Who voted for whom, for a lock taken by several nodes' votes (Redlock):
 * the grid (votes-grid), what it shows in words — two holders at once, the
 * node that voted for both and why — a table of each holder's majority, and
 * every vote as text. All of it derived (lib/votes) from the events up to the
 * time-travel cursor, so it follows the cursor and shows a saved run alike.
 */
import { useMemo } from 'react';
import { clientLabel, nodeLabel } from '@/lib/cluster';
import { formatDuration } from '@/lib/durations';
import {
  ANSWER_WORDS,
  clusterSize,
  countWords,
  deriveVotes,
  doubleVoteWords,
  holdersAt,
  holdingWords,
  outcomeWords,
  twoHoldersWords,
  votesWords,
  type AcquireAttempt,
  type VoteAnalysis,
} from '@/lib/votes';
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
  const moment = shown.cursorT === null ? `At the end (${at(endT)})` : `At ${at(endT)}`;
  const now =
    holders.length === 0
      ? `${moment} nobody holds the lock.`
      : `${moment}: ${holders.map((h) => holdingWords(h, analysis)).join('; ')}.`;
  const gridLabel =
    `Votes per node, ${analysis.nodes.length} nodes from ${at(first)} to ${at(last)}: ${analysis.attempts.length} acquire attempts` +
    (analysis.twoHolders.length > 0 ? `, two clients holding the lock at once ${analysis.twoHolders.length === 1 ? 'once' : `${analysis.twoHolders.length} times`}` : '') +
    '. Click to move the time-travel cursor. The same votes as text follow.';

  return (
    <section className={styles.votes} aria-labelledby="votes-title" data-testid="votes-view" data-attempts={analysis.attempts.length}>
      <header className={panel.header}>
        <h2 id="votes-title" className={panel.title}>
          Who voted for whom
        </h2>
        <Legend clients={clients} />
      </header>
      <div className={styles.findings} data-testid="votes-findings">
        {analysis.twoHolders.length === 0 ? (
          <p className={styles.muted}>
            {shown.cursorT === null ? 'No two clients held the lock at once.' : `Up to ${at(endT)}, no two clients held the lock at once.`}
          </p>
        ) : (
          analysis.twoHolders.slice(0, 3).map((pair, i) => (
            <p key={i} className={styles.finding} data-testid="two-holders">
              <strong>Two holders at once</strong> ({at(pair.from)}–{pair.to === null ? 'now' : at(pair.to)}): {twoHoldersWords(pair, analysis)}
            </p>
          ))
        )}
        {analysis.doubleVotes.slice(0, 3).map((d, i) => (
          <p key={`d-${i}`} className={styles.now} data-testid="double-vote">
            {doubleVoteWords(d, at)}
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
        <summary>Every vote as text</summary>
        <AttemptList attempts={analysis.attempts} analysis={analysis} at={at} onShow={setCursor} />
      </details>
    </section>
  );
}

function Legend({ clients }: { clients: readonly number[] }) {
  return (
    <ul className={panel.legend} aria-label="Legend">
      {clients.map((c) => (
        <li key={c} className={styles.client} data-slot={clientSlot(c)}>
          <span className={styles.swatch} aria-hidden="true" /> {clientLabel(c)}’s vote
        </li>
      ))}
      <li>● OK ○ nil × error ◇ timeout</li>
      <li>
        <span className={styles.swatch} data-kind="ghost" aria-hidden="true" /> counted, but forgotten by the node
      </li>
      <li>⟲ the node forgot what it held (restarted empty, clock jump)</li>
      <li>
        <span className={styles.swatch} data-kind="band" aria-hidden="true" /> two holders
      </li>
    </ul>
  );
}

/** Each holder's majority, node by node: the shared node stands out. */
function MajorityTable({ analysis, at, endT }: { analysis: VoteAnalysis; at: (t: number) => string; endT: number }) {
  if (analysis.holdings.length === 0) return null;
  const rows = analysis.holdings.slice(-8);
  const sharedWith = (client: number, node: number) =>
    analysis.twoHolders.some((p) => p.shared.includes(node) && (p.first.client === client || p.second.client === client));
  return (
    <div className={styles.tableScroll}>
      <table className={styles.table} data-testid="votes-majorities">
        <caption>Who held the lock, with whose votes</caption>
        <thead>
          <tr>
            <th scope="col">Holder</th>
            <th scope="col">When</th>
            {analysis.nodes.map((n) => (
              <th key={n} scope="col">
                {nodeLabel(n)}
              </th>
            ))}
            <th scope="col">Votes</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((h) => {
            const attempt = analysis.attempts[h.attemptId];
            const holdsNow = h.from <= endT && (h.to === null || h.to > endT);
            return (
              <tr key={`${h.client}-${h.attemptId}`} data-client={h.client} data-now={holdsNow || undefined}>
                <th scope="row">{clientLabel(h.client)}</th>
                <td>
                  {at(h.from)}–{h.to === null ? 'now' : at(h.to)}
                  {h.endedBy === 'expired' ? ' (lapsed)' : ''}
                </td>
                {analysis.nodes.map((n) => {
                  const vote = attempt?.votes.find((v) => v.node === n);
                  const shared = h.nodes.includes(n) && sharedWith(h.client, n);
                  return (
                    <td key={n} data-shared={shared || undefined}>
                      {vote ? ANSWER_WORDS[vote.answer] : '—'}
                      {shared ? ' (voted for both)' : ''}
                    </td>
                  );
                })}
                <td>{countWords(h.nodes.length, analysis)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function AttemptList({ attempts, analysis, at, onShow }: { attempts: readonly AcquireAttempt[]; analysis: VoteAnalysis; at: (t: number) => string; onShow(t: number): void }) {
  if (attempts.length === 0) return <p className={styles.muted}>No acquire yet.</p>;
  const listed = attempts.slice(-MAX_LISTED);
  return (
    <ol className={styles.attempts} data-testid="votes-attempts">
      {attempts.length > listed.length && <li className={styles.muted}>{attempts.length - listed.length} earlier attempts not listed.</li>}
      {listed.map((a) => {
        const when = a.decidedT ?? Math.max(a.startT, ...a.votes.map((v) => v.t ?? v.sentT));
        const name = `${clientLabel(a.client)}, attempt ${a.number}`;
        return (
          <li key={a.id} data-outcome={a.outcome}>
            <time>{at(a.startT)}</time> {name}: {votesWords(a) || 'no answer yet'} — {outcomeWords(a, analysis)}.
            <button type="button" onClick={() => onShow(when)} aria-label={`Show the moment ${name} ${a.outcome === 'collecting' ? 'was collecting votes' : a.outcome}`}>
              Show this moment
            </button>
          </li>
        );
      })}
    </ol>
  );
}
