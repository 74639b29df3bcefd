/**
 * What the timeline's shapes say when hovered, and the lab events listed
 * under it: the layout builds its labels through these functions, English
 * by default (tests, code outside a page), the page's language when the
 * timeline hands in `layoutWords(t)`. Plain functions: a layout labels
 * 10,000s of intervals, and a translator is only called per label.
 * The server's own sentences (a refused fault's reason, what an operation
 * did, a node's reason, the node guard's detail) come with their words: the
 * page writes them in its language; without words (a run file from before, a
 * Redis error) they are passed through as they came.
 */
import type { NodeState } from '@/lib/cluster';
import type { NemesisOp } from '@/lib/history';
import type { Words } from '@/lib/words';
import type { TimelineT } from './summary';
import { faultKey } from '@/lib/faults/catalogue';

export interface LayoutWords {
  lane(client: number): string;
  section(job: string, execution: number): string;
  write(accepted: boolean, key: string, token: string | number | null, reason: string | undefined): string;
  nemesis(op: NemesisOp, target: string): string;
  refused(op: NemesisOp, target: string, detail: string | undefined, detailWords?: Words): string;
  /** What an operation did (the server's sentence, with its words when it sent them); without one, `nemesis(op, target)`. */
  done(op: NemesisOp, target: string, detail: string | undefined, detailWords?: Words): string;
  node(node: number, state: NodeState, reason: string, reasonWords?: Words): string;
  guard(node: number, detail: string, detailWords?: Words): string;
  /** A scenario's line (the server's sentence, with its words when it sent them). */
  scenario(text: string, words?: Words): string;
  acquiring(what: string, attempt: number | undefined): string;
  attempted(ok: boolean, what: string, votes: { granted: number; total: number; quorum: number | undefined } | null): string;
  holding(what: string): string;
  holdingRaw(key: string, node: number): string;
  extended(what: string, ttlMs: number | undefined): string;
  extendFailed(what: string, detail: string | undefined): string;
  released(what: string): string;
  releasedRaw(key: string, command: string): string;
  releaseFailed(what: string, detail: string | undefined): string;
  started(): string;
  paused(durationMs: number | undefined): string;
  /** Frozen while the run stood at the learner's breakpoint (not a pause the learner injected). */
  atBreakpoint(): string;
  skewed(durationMs: number | undefined): string;
  ended(event: 'crash' | 'exit' | 'error', detail: string | undefined): string;
  stillGoing(): string;
}

const detailed = (text: string, detail: string | undefined, sep = ': ') => (detail ? `${text}${sep}${detail}` : text);

export const ENGLISH_LAYOUT_WORDS: LayoutWords = {
  lane: (client) => `Client ${client}`,
  section: (job, execution) => `inside job '${job}' (execution ${execution})`,
  write: (accepted, key, token, reason) =>
    `${accepted ? 'wrote' : 'write rejected:'} ${key}${token === null ? ' (no token)' : ` with token ${token}`}${accepted ? '' : reason ? ` (${reason})` : ''}`,
  nemesis: (op, target) => `${op} ${target}`,
  done: (op, target, detail) => detail ?? `${op} ${target}`,
  refused: (op, target, detail) => `refused: ${op} ${target}${detail ? ` (${detail})` : ''}`,
  node: (node, state, reason) => `Node ${node} ${state}${reason ? ` (${reason})` : ''}`,
  guard: (node, detail) => `Node ${node}: ${detail}`,
  scenario: (text) => `scenario: ${text}`,
  acquiring: (what, attempt) => `acquiring ${what}${attempt && attempt > 1 ? ` (attempt ${attempt})` : ''}`,
  attempted: (ok, what, votes) =>
    `${ok ? 'acquired' : 'failed to acquire'} ${what}${votes ? ` (${votes.granted} of ${votes.total} votes${votes.quorum ? `, quorum ${votes.quorum}` : ''})` : ''}`,
  holding: (what) => `holding ${what}`,
  holdingRaw: (key, node) => `holding ${key} (acquired by hand on Node ${node})`,
  extended: (what, ttlMs) => `extended ${what}${ttlMs ? ` by ${ttlMs} ms` : ''}`,
  extendFailed: (what, detail) => detailed(`could not extend ${what}`, detail),
  released: (what) => `released ${what}`,
  releasedRaw: (key, command) => `released ${key} (${command})`,
  releaseFailed: (what, detail) => detailed(`release of ${what} failed`, detail),
  started: () => 'started',
  paused: (durationMs) => `paused${durationMs ? ` for ${durationMs} ms` : ''}`,
  atBreakpoint: () => "stopped at the breakpoint: every client frozen, the nodes' clock running",
  skewed: (durationMs) => `clock skewed${durationMs !== undefined ? ` by ${durationMs} ms` : ''}`,
  ended: (event, detail) => detailed(event === 'crash' ? 'crashed' : event === 'exit' ? 'exited' : 'failed', detail),
  stillGoing: () => ' (still going)',
};


/** The same labels in the page's language. */
/** `said` writes a server sentence (its words, else its English) in the page's language. */
export function layoutWords(t: TimelineT, said?: (s: { message: string; words?: Words }) => string): LayoutWords {
  const opWords = (op: NemesisOp) => t(`shape.op.${faultKey(op)}`);
  // A server sentence: in the page's language from its words when it sent them, else as it came.
  const server = (message: string, data: Words | undefined) => (said ? said(data ? { message, words: data } : { message }) : message);
  return {
    lane: (client) => t('client', { n: client }),
    section: (job, execution) => t('shape.section', { job, execution }),
    write: (accepted, key, token, reason) => {
      const tokenWords = token === null ? t('shape.noToken') : t('shape.withToken', { token: String(token) });
      if (accepted) return t('shape.wrote', { key, token: tokenWords });
      return reason ? t('shape.writeRejectedWhy', { key, token: tokenWords, reason }) : t('shape.writeRejected', { key, token: tokenWords });
    },
    nemesis: (op, target) => t('shape.nemesis', { op: opWords(op), target }),
    refused: (op, target, detail, detailWords) => {
      if (!detail) return t('shape.refused', { op: opWords(op), target });
      const why = server(detail, detailWords);
      return t('shape.refusedWhy', { op: opWords(op), target, detail: why });
    },
    done: (op, target, detail, detailWords) => (detail === undefined ? t('shape.nemesis', { op: opWords(op), target }) : server(detail, detailWords)),
    node: (node, state, reason, reasonWords) =>
      reason ? t('shape.nodeWhy', { node, state: t(`shape.state.${state}`), reason: server(reason, reasonWords) }) : t('shape.node', { node, state: t(`shape.state.${state}`) }),
    guard: (node, detail, detailWords) => t('shape.guard', { node, detail: server(detail, detailWords) }),
    scenario: (text, words) => t('shape.scenario', { text: server(text, words) }),
    acquiring: (what, attempt) => (attempt && attempt > 1 ? t('shape.acquiringAttempt', { what, attempt }) : t('shape.acquiring', { what })),
    attempted: (ok, what, votes) => {
      const outcome = ok ? t('shape.acquired', { what }) : t('shape.failedToAcquire', { what });
      if (!votes) return outcome;
      return votes.quorum
        ? t('shape.withVotesQuorum', { outcome, granted: votes.granted, total: votes.total, quorum: votes.quorum })
        : t('shape.withVotes', { outcome, granted: votes.granted, total: votes.total });
    },
    holding: (what) => t('shape.holding', { what }),
    holdingRaw: (key, node) => t('shape.holdingRaw', { key, node }),
    extended: (what, ttlMs) => (ttlMs ? t('shape.extendedBy', { what, ms: ttlMs }) : t('shape.extended', { what })),
    extendFailed: (what, detail) => detailed(t('shape.extendFailed', { what }), detail),
    released: (what) => t('shape.released', { what }),
    releasedRaw: (key, command) => t('shape.releasedRaw', { key, command }),
    releaseFailed: (what, detail) => detailed(t('shape.releaseFailed', { what }), detail),
    started: () => t('shape.started'),
    paused: (durationMs) => (durationMs ? t('shape.pausedFor', { ms: durationMs }) : t('shape.paused')),
    atBreakpoint: () => t('shape.atBreakpoint'),
    skewed: (durationMs) => (durationMs !== undefined ? t('shape.skewedBy', { ms: durationMs }) : t('shape.skewed')),
    ended: (event, detail) => detailed(t(`shape.ended.${event}`), detail),
    stillGoing: () => ` ${t('shape.stillGoing')}`,
  };
}
