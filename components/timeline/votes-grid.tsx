'use client';
/**
 * Who voted for whom, drawn: a row per node across the run's time, a thin
 * lane per client in each row. A client's colour runs along a node's row for
 * as long as that node holds its vote; a mark is each answer (● OK, ○ nil,
 * × error, ◇ timeout). A vote the node forgot while its holder still counted
 * it goes on faded and dashed, so a node holding two clients' colours in one
 * column voted twice. SVG: a few hundred shapes, no redraw loop to manage.
 * Clicking puts the time-travel cursor there.
 */
import { useTranslations } from 'next-intl';
import { useRef, type MouseEvent } from 'react';
import type { TimeWindow } from '@/lib/checker';
import type { VoteAnalysis, VoteAnswer } from '@/lib/votes';
import { useFormatDuration } from '@/components/lab/use-duration';
import { answerWords, clientWords, nodeWords } from './vote-words';
import styles from './votes.module.css';
import { usePanelWidth } from './use-panel-width';

const LABEL_WIDTH = 64;
const LANE = 7;
const ROW_PAD = 5;
const AXIS = 22;
/** Answers drawn at most (the latest): past this the marks would be a smear anyway, and the table has them all. */
const MAX_MARKS = 1500;

export interface VotesGridProps {
  analysis: VoteAnalysis;
  /** The clients with a lane, in order. */
  clients: readonly number[];
  /** The whole run: the frame the cursor moves in. */
  extent: TimeWindow;
  origin: number;
  cursorT: number | null;
  label: string;
  onPick(t: number): void;
}

/** Client n's colour slot (the palette has six). */
export const clientSlot = (client: number): number => ((client - 1) % 6 + 6) % 6;

export function VotesGrid({ analysis, clients, extent, origin, cursorT, label, onPick }: VotesGridProps) {
  const wrapper = useRef<HTMLDivElement>(null);
  const width = usePanelWidth(wrapper);
  const t = useTranslations('timeline.votes');
  const formatDuration = useFormatDuration();

  const lanes = Math.max(1, clients.length);
  const rowHeight = ROW_PAD * 2 + lanes * LANE;
  const height = analysis.nodes.length * rowHeight + AXIS;
  const span = Math.max(1, extent.to - extent.from);
  const plot = width - LABEL_WIDTH - 8;
  const x = (t: number) => LABEL_WIDTH + ((Math.min(Math.max(t, extent.from), extent.to) - extent.from) / span) * plot;
  const rowOf = new Map(analysis.nodes.map((n, i) => [n, i]));
  const laneOf = new Map(clients.map((c, i) => [c, i]));
  const rowY = (node: number) => (rowOf.get(node) ?? 0) * rowHeight;
  const laneY = (node: number, client: number) => rowY(node) + ROW_PAD + (laneOf.get(client) ?? 0) * LANE;
  const endT = analysis.endT;

  const shared = new Set(analysis.twoHolders.flatMap((p) => p.shared));
  const votes = analysis.attempts.flatMap((a) => a.votes).filter((v) => v.t !== null);
  const marks = votes.length > MAX_MARKS ? votes.slice(-MAX_MARKS) : votes;
  const ticks = axisTicks(extent, origin, plot);

  const pick = (e: MouseEvent<SVGSVGElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const px = e.clientX - rect.left;
    if (px < LABEL_WIDTH) return;
    onPick(Math.round(extent.from + ((px - LABEL_WIDTH) / plot) * span));
  };

  return (
    // Time runs left to right in every language: the grid is not mirrored.
    <div ref={wrapper} className={styles.gridWrap} dir="ltr">
      <svg className={styles.grid} width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} onClick={pick} data-testid="votes-grid">
        {analysis.nodes.map((node, i) => (
          <g key={`row-${node}`}>
            <rect x={0} y={i * rowHeight} width={width} height={rowHeight} className={i % 2 === 0 ? styles.rowEven : styles.rowOdd} />
            <text x={6} y={i * rowHeight + rowHeight / 2} dominantBaseline="central" className={styles.rowLabel} data-shared={shared.has(node) || undefined}>
              {nodeWords(t, node)}
            </text>
          </g>
        ))}
        {analysis.downs.map((d, i) => (
          <rect key={`down-${i}`} x={x(d.from)} y={rowY(d.node) + 1} width={Math.max(2, x(d.to ?? endT) - x(d.from))} height={rowHeight - 2} className={styles.down}>
            <title>{t('grid.down', { node: nodeWords(t, d.node) })}</title>
          </rect>
        ))}
        {analysis.twoHolders.map((p, i) => (
          <g key={`two-${i}`}>
            <rect x={x(p.from)} y={0} width={Math.max(2, x(p.to ?? endT) - x(p.from))} height={analysis.nodes.length * rowHeight} className={styles.band} />
            {p.shared.map((node) => (
              <rect key={node} x={x(p.from)} y={rowY(node) + 1} width={Math.max(2, x(p.to ?? endT) - x(p.from))} height={rowHeight - 2} className={styles.sharedRow} />
            ))}
          </g>
        ))}
        {analysis.grants.map((g, i) => {
          const y = laneY(g.node, g.client) + 1;
          const to = g.to ?? endT;
          return (
            <g key={`grant-${i}`} data-slot={clientSlot(g.client)} className={styles.client}>
              <rect x={x(g.from)} y={y} width={Math.max(2, x(to) - x(g.from))} height={LANE - 2} className={styles.grant} />
              {g.ghostTo !== undefined && g.to !== null && (
                <rect x={x(g.to)} y={y} width={Math.max(2, x(g.ghostTo ?? endT) - x(g.to))} height={LANE - 2} className={styles.ghost}>
                  <title>{t('grid.ghost', { client: clientWords(t, g.client), node: nodeWords(t, g.node) })}</title>
                </rect>
              )}
            </g>
          );
        })}
        {marks.map((v, i) => (
          <g key={`vote-${i}`} data-slot={clientSlot(v.client)} className={styles.client}>
            <Mark answer={v.answer} cx={x(v.t ?? v.sentT)} cy={laneY(v.node, v.client) + LANE / 2} />
            <title>{`${t('grid.vote', { client: clientWords(t, v.client), node: nodeWords(t, v.node), answer: answerWords(t, v.answer), at: formatDuration((v.t ?? v.sentT) - origin) })}${v.error ? ` (${v.error})` : ''}`}</title>
          </g>
        ))}
        {analysis.forgettings.map((f, i) => (
          <text key={`forgot-${i}`} x={x(f.t)} y={rowY(f.node) + rowHeight / 2} textAnchor="middle" dominantBaseline="central" className={styles.forgot}>
            ⟲<title>{t('grid.forgot', { node: nodeWords(t, f.node) })}</title>
          </text>
        ))}
        {ticks.map((tick) => (
          <g key={`tick-${tick}`}>
            <line x1={x(tick)} x2={x(tick)} y1={0} y2={height - AXIS + 4} className={styles.tick} />
            <text x={x(tick)} y={height - 6} textAnchor="middle" className={styles.axisLabel}>
              {formatDuration(tick - origin)}
            </text>
          </g>
        ))}
        {cursorT !== null && <line x1={x(cursorT)} x2={x(cursorT)} y1={0} y2={height - AXIS + 4} className={styles.cursor} />}
      </svg>
    </div>
  );
}

function Mark({ answer, cx, cy }: { answer: VoteAnswer; cx: number; cy: number }) {
  const r = 2.6;
  switch (answer) {
    case 'ok':
      return <circle cx={cx} cy={cy} r={r} className={styles.markOk} />;
    case 'nil':
      return <circle cx={cx} cy={cy} r={r} className={styles.markNil} />;
    case 'error':
      return <path d={`M${cx - r} ${cy - r}L${cx + r} ${cy + r}M${cx + r} ${cy - r}L${cx - r} ${cy + r}`} className={styles.markError} />;
    case 'timeout':
      return <path d={`M${cx} ${cy - r - 0.5}L${cx + r + 0.5} ${cy}L${cx} ${cy + r + 0.5}L${cx - r - 0.5} ${cy}Z`} className={styles.markNil} />;
    default:
      return null;
  }
}

/** Round times from the run's start, about one per 90 px (three at least, so a phone still reads the axis). */
function axisTicks(extent: TimeWindow, origin: number, plot: number): number[] {
  const span = extent.to - extent.from;
  if (span <= 0) return [];
  const want = Math.max(3, Math.floor(plot / 90));
  const raw = span / want;
  const step = [1, 2, 5, 10, 20, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000, 20_000, 60_000].find((s) => s >= raw) ?? raw;
  const first = Math.ceil((extent.from - origin) / step) * step + origin;
  const ticks: number[] = [];
  for (let t = first; t <= extent.to; t += step) ticks.push(t);
  return ticks;
}
