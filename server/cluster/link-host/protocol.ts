/**
 * Messages between the lab server and its link process (over the child's IPC
 * channel, which keeps their order). Links are named by a number the server
 * hands out; of labs, the link process knows only which link is whose, for
 * each lab's share of its descriptors (lab-sockets.ts).
 */
import type { LinkCutMode } from '@/lib/cluster';
import type { ErrorCode } from '@/lib/result';
import type { SocketBudget, SocketsRefused } from './lab-sockets';

/** What a link is, enough to open it again in a new link process. */
export interface LinkState {
  id: number;
  name: string;
  /** The lab whose share of descriptors this link's connections count against. */
  lab: string;
  /** 0 until it first listened. */
  port: number;
  cut: LinkCutMode | null;
  delayMs: number;
  jitterMs: number;
}

export type LinkCall = { op: 'listen' } | { op: 'start' } | { op: 'cut'; mode: LinkCutMode } | { op: 'heal' } | { op: 'close' };

export type ToLinkProcess =
  | ({ type: 'open' } & LinkState)
  | { type: 'call'; req: number; id: number; call: LinkCall }
  | { type: 'delay'; id: number; delayMs: number; jitterMs: number }
  | { type: 'reset'; id: number }
  /** Where link `id`'s node is now (null: down): sent after `open`, and whenever it changes. */
  | { type: 'target-is'; id: number; port: number | null }
  /** How each lab's share of descriptors is reckoned: sent before any link is opened, and again if it changes. */
  | ({ type: 'budget' } & SocketBudget);

export type FromLinkProcess =
  /** Sent once, as soon as the process runs: the server's start waits for it (see LinkHost.start). */
  | { type: 'ready' }
  | { type: 'reply'; req: number; ok: true; port: number }
  | { type: 'reply'; req: number; ok: false; code: ErrorCode; message: string }
  /** A lab's connections were refused past its share (at most once a second per lab). */
  | ({ type: 'refused' } & SocketsRefused);
