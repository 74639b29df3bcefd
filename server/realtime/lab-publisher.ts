/**
 * Turns a lab's events into socket messages for its room, batched: changes
 * that happen close together leave in one message, and nothing waits longer
 * than FLUSH_MS. Node views are sent whole but only for nodes that changed.
 */
import type { Server } from 'socket.io';
import type { HistoryEvent } from '@/lib/history';
import { newestWithin } from '@/lib/history-size';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import type { RunCatchUp } from '@/lib/run';
import type { Lab } from '../lab/lab';

/**
 * A change leaves on the next turn of the event loop (so one operation's
 * events travel together), but no more often than every MIN_GAP_MS, so a
 * busy run's history is coalesced instead of sent event by event.
 */
const MIN_GAP_MS = 10;

export const labRoom = (labId: string): string => `lab:${labId}`;

export function publishLab(io: Server<ClientToServerEvents, ServerToClientEvents>, lab: Lab): () => void {
  const room = labRoom(lab.id);
  const changedNodes = new Set<number>();
  let linksChanged = false;
  let history: HistoryEvent[] = [];
  let timer: NodeJS.Timeout | NodeJS.Immediate | null = null;
  let lastFlush = -Infinity;

  const flush = () => {
    timer = null;
    lastFlush = performance.now();
    if (lab.closed) return;
    if (changedNodes.size) {
      const nodes = [...changedNodes].sort((a, b) => a - b).map((id) => lab.nodeView(id));
      changedNodes.clear();
      io.to(room).emit('nodes:update', { labId: lab.id, nodes, now: lab.now() });
    }
    if (linksChanged) {
      linksChanged = false;
      io.to(room).emit('links:update', { labId: lab.id, links: lab.linkViews(), replication: lab.replicationView() });
    }
    if (history.length) {
      const events = history;
      history = [];
      io.to(room).emit('history:append', { labId: lab.id, from: events[0]!.seq, events });
    }
  };
  let waitingForGap = false;
  const schedule = () => {
    if (timer) return;
    const wait = lastFlush + MIN_GAP_MS - performance.now();
    waitingForGap = wait > 0;
    timer = waitingForGap ? setTimeout(flush, wait) : setImmediate(flush);
  };
  /** A node changing state is what people watch for: it leaves on the next turn, whatever the gap. */
  const scheduleNow = () => {
    if (timer && waitingForGap) {
      clearTimeout(timer as NodeJS.Timeout);
      timer = null;
    }
    if (timer) return;
    waitingForGap = false;
    timer = setImmediate(flush);
  };

  const onNodes = (ids: number[], urgent = false) => {
    for (const id of ids) changedNodes.add(id);
    if (urgent) scheduleNow();
    else schedule();
  };
  const onLinks = () => {
    linksChanged = true;
    schedule();
  };
  const onHistory = (event: HistoryEvent) => {
    history.push(event);
    schedule();
  };
  const onReset = () => {
    changedNodes.clear();
    linksChanged = false;
    io.to(room).emit('lab:snapshot', lab.snapshot());
  };
  const onClosed = (reason: string) => {
    io.to(room).emit('lab:closed', { labId: lab.id, reason });
  };
  lab.on('nodes', onNodes);
  lab.on('links', onLinks);
  lab.on('history', onHistory);
  lab.on('reset', onReset);
  lab.once('closed', onClosed);
  return () => {
    if (timer) {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
    }
    lab.off('nodes', onNodes);
    lab.off('links', onLinks);
    lab.off('history', onHistory);
    lab.off('reset', onReset);
    lab.off('closed', onClosed);
  };
}

/** History is sent to a joining viewer in slices, so a long history does not become one huge frame. */
const HISTORY_SLICE = 2_000;

type CatchUpSocket = { emit: Server<ClientToServerEvents, ServerToClientEvents>['emit'] };

/**
 * Brings one viewer up to date after its snapshot: the history in slices,
 * then the run going on or the last run's end, so a tab that reloads (or a
 * learner who joins a class late) sees the verdict, not an empty panel.
 */
export function sendCatchUp(socket: CatchUpSocket, labId: string, all: readonly HistoryEvent[], runs: RunCatchUp | null): void {
  // No more than a tab keeps: the rest would be dropped on arrival, after costing the socket's buffer.
  const history = newestWithin(all);
  for (let from = 0; from < history.length; from += HISTORY_SLICE) {
    socket.emit('history:append', { labId, from: history[from]!.seq, events: history.slice(from, from + HISTORY_SLICE) });
  }
  if (!runs) return;
  if (runs.active) {
    socket.emit('run:started', { ...runs.active, labId });
    if (runs.verdict) socket.emit('run:verdict', { ...runs.verdict, labId });
  } else if (runs.lastEnded) {
    socket.emit('run:ended', { ...runs.lastEnded, labId });
  }
}
