/**
 * Turns a lab's events into socket messages for its room, batched: changes
 * that happen close together leave in one message, and nothing waits longer
 * than FLUSH_MS. Node views are sent whole but only for nodes that changed.
 */
import type { Server } from 'socket.io';
import type { HistoryEvent } from '@/lib/history';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import type { Lab } from '../lab/lab';
import { labRoom } from './lab-view';
import type { Words } from '@/lib/words';

/**
 * A change leaves on the next turn of the event loop (so one operation's
 * events travel together), but no more often than every MIN_GAP_MS, so a
 * busy run's history is coalesced instead of sent event by event.
 */
const MIN_GAP_MS = 10;

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
  const onClosed = (reason: string, words?: Words) => {
    io.to(room).emit('lab:closed', { labId: lab.id, reason, ...(words ? { words } : {}) });
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
