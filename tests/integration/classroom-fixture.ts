/** Typed socket.io clients for classroom tests: connect, await Results, collect what a socket receives. */
import type { Socket } from 'socket.io-client';
import { tabSoon } from '../helpers/browser-identity';
import type { NodeView } from '@/lib/cluster';
import type { HistoryEvent } from '@/lib/history';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import type { Result } from '@/lib/result';

export type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * A socket as a tab opens it, with a browser identity bought as a page buys it; `headers` may carry a Cookie
 * (the same browser as another tab — its identity cookie, and perhaps its instructor cookie).
 */
export function connectTo(url: string, opened: Client[], headers?: Record<string, string>): Client {
  const socket: Client = tabSoon(url, headers?.cookie ? { cookie: headers.cookie, extraHeaders: headers } : {});
  opened.push(socket);
  return socket;
}

export function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** Sends any event name with any payload (for refusals the typings would not allow). */
export function emitRaw(socket: Client, event: string, payload: unknown): Promise<Result<unknown>> {
  return (socket as unknown as { emitWithAck(e: string, p: unknown): Promise<Result<unknown>> }).emitWithAck(event, payload);
}

/**
 * Everything one socket sees of one lab: node states by id and the history by
 * seq. Events of every lab are kept by labId, because the history sent on a
 * join can be read in the same tick as the join's ack, before the caller
 * knows which labId to look for.
 */
export class LabWatcher {
  private readonly nodesByLab = new Map<string, Map<number, NodeView>>();
  private readonly historyByLab = new Map<string, Map<number, HistoryEvent>>();

  constructor(
    socket: Client,
    private readonly labId: () => string | null,
  ) {
    socket.on('lab:snapshot', (s) => {
      for (const n of s.nodes) this.nodesOf(s.labId).set(n.id, n);
    });
    socket.on('nodes:update', (d) => {
      for (const n of d.nodes) this.nodesOf(d.labId).set(n.id, n);
    });
    socket.on('history:append', (b) => {
      for (const e of b.events) this.historyOf(b.labId).set(e.seq, e);
    });
  }

  private nodesOf(labId: string): Map<number, NodeView> {
    let map = this.nodesByLab.get(labId);
    if (!map) this.nodesByLab.set(labId, (map = new Map()));
    return map;
  }

  private historyOf(labId: string): Map<number, HistoryEvent> {
    let map = this.historyByLab.get(labId);
    if (!map) this.historyByLab.set(labId, (map = new Map()));
    return map;
  }

  get nodes(): Map<number, NodeView> {
    return this.nodesOf(this.labId() ?? '');
  }

  get history(): Map<number, HistoryEvent> {
    return this.historyOf(this.labId() ?? '');
  }

  state(node: number): string | undefined {
    return this.nodes.get(node)?.state;
  }

  /** The history in seq order, as comparable JSON lines. */
  lines(): string[] {
    return [...this.history.entries()].sort(([a], [b]) => a - b).map(([, e]) => JSON.stringify(e));
  }
}
