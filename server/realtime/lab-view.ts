/**
 * How a tab starts watching a lab — its own, or a classroom's (whose lab may
 * run on another server): one way for both. The owner of the lab makes the
 * view (`viewOf`); the viewer's server puts the socket in the rooms first and
 * then sends the view (`enterView`), so an event in between arrives twice
 * (a viewer de-duplicates by seq), never not at all.
 */
import type { Socket } from 'socket.io';
import type { LabSnapshot } from '@/lib/cluster';
import type { HistoryEvent } from '@/lib/history';
import { newestWithin } from '@/lib/history-size';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import type { RunCatchUp } from '@/lib/run';
import type { Lab } from '../lab/lab';

/** What a tab is sent when it starts watching: the lab's state, the history it keeps, and the runs. */
export interface LabView {
  snapshot: LabSnapshot;
  history: HistoryEvent[];
  runs: RunCatchUp | null;
}

/** The room every viewer of a lab is in, on every server. */
export const labRoom = (labId: string): string => `lab:${labId}`;

/**
 * The view of `lab` for a tab that joins now, from history seq `from` (a tab
 * that moved to another page sees only what came after the rebuild). No more
 * history than a tab keeps (lib/history-size): the view may cross to another
 * server, and the rest would be dropped on arrival after costing the buffers.
 */
export function viewOf(lab: Lab, runs: RunCatchUp | null, from = 0): LabView {
  return { snapshot: { ...lab.snapshot(), historyFrom: from }, history: [...newestWithin(lab.history.since(from))], runs };
}

type ViewerSocket = Pick<Socket<ClientToServerEvents, ServerToClientEvents>, 'emit' | 'join'>;

/**
 * Puts `socket` in `rooms`, then sends it the view: the snapshot (returned for
 * the ack, and as an event for listeners that only watch events), and after
 * it the history and the runs. A view that cannot be had leaves the socket
 * in the rooms; the caller decides whether to leave them.
 */
export async function enterView(socket: ViewerSocket, rooms: string[], view: () => LabView | Promise<LabView>): Promise<LabSnapshot> {
  await socket.join(rooms);
  const { snapshot, history, runs } = await view();
  socket.emit('lab:snapshot', snapshot);
  setImmediate(() => sendCatchUp(socket, snapshot.labId, history, runs));
  return snapshot;
}

/** History is sent to a joining viewer in slices, so a long history does not become one huge frame. */
const HISTORY_SLICE = 2_000;

/**
 * Brings one viewer up to date after its snapshot: the history in slices,
 * then the run going on (and its verdict so far) or the last run's end with
 * the run it was, so a tab that reloads (or a learner who joins a class
 * late) sees the server's verdict, not an empty panel — and never has to
 * work one out itself.
 */
export function sendCatchUp(socket: Pick<ViewerSocket, 'emit'>, labId: string, all: readonly HistoryEvent[], runs: RunCatchUp | null): void {
  // No more than a tab keeps, whoever made the view.
  const history = newestWithin(all);
  for (let from = 0; from < history.length; from += HISTORY_SLICE) {
    socket.emit('history:append', { labId, from: history[from]!.seq, events: history.slice(from, from + HISTORY_SLICE) });
  }
  if (!runs) return;
  if (runs.active) {
    socket.emit('run:started', { ...runs.active, labId });
    if (runs.verdict) socket.emit('run:verdict', { ...runs.verdict, labId });
  } else if (runs.last) {
    socket.emit('run:ended', { ...runs.last.ended, info: runs.last.info, labId });
  }
}
