/**
 * A link: a small TCP proxy between one client (or a replica) and one node,
 * owned by the lab, so a fault can hit exactly that path.
 *
 * - cut `refuse`: the listening socket is closed (new connections get
 *   ECONNREFUSED from the kernel) and open connections are reset.
 * - cut `blackhole`: nothing flows in either direction; bytes wait in the
 *   kernel buffers as they would behind a real partition (TCP retransmits),
 *   so the peer sees timeouts, and late data arrives if the link heals.
 * - delay: every chunk is held `delayMs` (+ up to `jitterMs`) in each
 *   direction, in order.
 * The target port is looked up per connection, so a node that restarts on
 * another port is still reached; a node that is down resets the connection.
 */
import net from 'node:net';
import type { LinkCutMode } from '@/lib/cluster';
import { LabOperationError } from '@/lib/result';
import { holdLinkPort, listenAgainOnLinkPort, listenOnNewLinkPort, releaseLinkPort } from './link-ports';
import { UNCOUNTED, type SocketAccount } from './link-host/lab-sockets';

export interface LinkTarget {
  /** The node's current port, or null while it is down; asked once per new connection. */
  port: () => number | null;
}

/** What the lab does with a link, wherever the link runs (this process, or the link process). */
export interface Link {
  readonly name: string;
  readonly port: number;
  readonly cut: LinkCutMode | null;
  readonly delayMs: number;
  readonly jitterMs: number;
  ensureListening(): Promise<number>;
  start(): Promise<number>;
  cutLink(mode: LinkCutMode): Promise<void>;
  heal(): Promise<void>;
  setDelay(delayMs: number, jitterMs?: number): void;
  resetConnections(): void;
  /** The node's state or port changed: a link that keeps where its node is learns it now. */
  refreshTarget(): void;
  close(): Promise<void>;
}

/**
 * One direction's delayed chunks, in the order they arrived, each with the
 * time it is due (never before the chunk ahead of it). One timer drains the
 * queue's head: a timer per chunk could fire out of order, since timers count
 * from the loop's cached time and chunks from the exact one, and a stream
 * whose bytes overtake each other is a corrupt stream, not a slow one.
 */
interface Lane {
  queue: { due: number; chunk: Buffer }[];
  /** Bytes in `queue`. */
  bytes: number;
  timer: NodeJS.Timeout | null;
  /** Its source is paused because too much waits here (see LANE_LIMIT_BYTES). */
  throttled: boolean;
}

/**
 * What one direction of one connection may hold in this process — delayed
 * chunks plus what the receiving socket has not yet written — before the
 * sending side is paused, as a full TCP window would. Without it a learner
 * writing fast into a delayed link, or into a paused node, filled the
 * process's heap, and with it every lab's links.
 */
export const LANE_LIMIT_BYTES = 1024 * 1024;

interface Pair {
  down: net.Socket; // from the client
  up: net.Socket | null; // to the node
  lanes: { up: Lane; down: Lane };
  /** Sockets of this pair counted against its lab's share (lab-sockets.ts), given back when it is dropped. */
  counted: number;
}

/** A link's port and faults, kept alike by a proxy and by the server's mirror of one in the link process. */
export abstract class LinkFaults {
  protected _port = 0;
  protected _cut: LinkCutMode | null = null;
  protected _delayMs = 0;
  protected _jitterMs = 0;

  get port(): number {
    return this._port;
  }
  get cut(): LinkCutMode | null {
    return this._cut;
  }
  get delayMs(): number {
    return this._delayMs;
  }
  get jitterMs(): number {
    return this._jitterMs;
  }
}

export class LinkProxy extends LinkFaults implements Link {
  private server: net.Server | null = null;
  private readonly pairs = new Set<Pair>();
  private closed = false;
  /** Its listening socket is counted in its lab's share. */
  private listening = false;

  constructor(
    readonly name: string,
    private readonly target: LinkTarget,
    /** Randomness for jitter; seeded by the caller when a scenario needs replays. */
    private readonly random: () => number = Math.random,
    /** The lab's share of this process's descriptors, which every connection's sockets count against. */
    private readonly sockets: SocketAccount = UNCOUNTED,
  ) {
    super();
  }

  get openConnections(): number {
    return this.pairs.size;
  }

  /**
   * Makes sure the link has a port: listening, or, while cut with `refuse`,
   * reserved-then-closed so connecting to it is refused by the kernel.
   */
  async ensureListening(): Promise<number> {
    if (this._port !== 0) return this._port;
    await this.start();
    if (this._cut === 'refuse') {
      const server = this.server;
      this.server = null;
      this.countListener(false);
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    return this._port;
  }

  /**
   * Listens: on a fresh link port the first time, on the same port after a
   * `refuse` cut (clients reconnect to the port they were given). The port
   * stays held from the first listen until close(), so nothing takes it
   * while the link refuses (see link-ports.ts).
   */
  async start(): Promise<number> {
    if (this.server) return this._port;
    if (this.closed) throw new LabOperationError('not-found', `${this.name} is closed`);
    const server = net.createServer((socket) => this.accept(socket));
    server.on('error', () => {
      /* listen errors are reported by listen(); later errors have no one to tell */
    });
    if (this._port === 0) this._port = await listenOnNewLinkPort(server);
    else await listenAgainOnLinkPort(server, this._port);
    this.server = server;
    this.countListener(true);
    return this._port;
  }

  /**
   * Takes over a port this link held in a link process that died: held again
   * here, listened on again unless the link is cut with `refuse`.
   */
  async reopen(port: number, cut: LinkCutMode | null): Promise<void> {
    holdLinkPort(port);
    this._port = port;
    this._cut = cut;
    if (cut !== 'refuse') await this.start();
  }

  /** The listening socket counts against the lab's share too (never refused: a lab's links must listen). */
  private countListener(listening: boolean): void {
    if (listening === this.listening) return;
    this.listening = listening;
    if (listening) this.sockets.hold();
    else this.sockets.give();
  }

  private accept(down: net.Socket): void {
    // Past the lab's share, the connection is reset as it arrives: its descriptor is back at once, and
    // the learner's client sees its connection fail (the lab's run says why: lab-sockets.ts).
    if (!this.sockets.take()) {
      down.on('error', () => undefined);
      down.resetAndDestroy();
      return;
    }
    down.setNoDelay(true);
    const lane = (): Lane => ({ queue: [], bytes: 0, timer: null, throttled: false });
    const pair: Pair = { down, up: null, lanes: { up: lane(), down: lane() }, counted: 1 };
    this.pairs.add(pair);
    down.on('error', () => this.drop(pair));
    down.on('close', () => this.drop(pair));
    if (this._cut === 'blackhole') {
      // Accepted but silent: we read nothing and connect nowhere until the link heals.
      down.pause();
      return;
    }
    this.connectUp(pair);
  }

  private connectUp(pair: Pair): void {
    const port = this.target.port();
    if (port === null) {
      // The node is down: the closest a proxy can come to ECONNREFUSED is an immediate reset.
      pair.down.resetAndDestroy();
      return;
    }
    if (!this.sockets.take()) {
      this.drop(pair, true);
      return;
    }
    pair.counted += 1;
    const up = net.connect({ port, host: '127.0.0.1' });
    up.setNoDelay(true);
    pair.up = up;
    up.on('error', () => this.drop(pair, true));
    up.on('close', () => this.drop(pair));
    pair.down.on('data', (chunk) => this.forward(pair, 'up', chunk));
    up.on('data', (chunk) => this.forward(pair, 'down', chunk));
    up.on('drain', () => this.relieve(pair, 'up'));
    pair.down.on('drain', () => this.relieve(pair, 'down'));
    if (this._cut === 'blackhole') this.freeze(pair);
    else pair.down.resume();
  }

  private forward(pair: Pair, direction: 'up' | 'down', chunk: Buffer): void {
    const to = direction === 'up' ? pair.up : pair.down;
    if (!to || to.destroyed) return;
    const lane = pair.lanes[direction];
    // Undelayed, and nothing delayed still ahead of it (a delay just removed): straight through.
    if (this._delayMs === 0 && this._jitterMs === 0 && lane.queue.length === 0) {
      to.write(chunk);
    } else {
      const wanted = performance.now() + this._delayMs + this.random() * this._jitterMs;
      const last = lane.queue[lane.queue.length - 1];
      lane.queue.push({ due: last ? Math.max(wanted, last.due) : wanted, chunk });
      lane.bytes += chunk.length;
      if (!lane.timer) this.drainLater(pair, direction, to);
    }
    if (!lane.throttled && this.held(pair, direction) > LANE_LIMIT_BYTES) {
      lane.throttled = true;
      this.sourceOf(pair, direction)?.pause();
    }
  }

  /** Writes every chunk that is due, in order, then waits for the next one. */
  private drainLater(pair: Pair, direction: 'up' | 'down', to: net.Socket): void {
    const lane = pair.lanes[direction];
    const head = lane.queue[0];
    if (!head) return;
    lane.timer = setTimeout(() => {
      lane.timer = null;
      const now = performance.now();
      while (lane.queue.length > 0 && (lane.queue[0] as { due: number }).due <= now + 0.5) {
        const { chunk } = lane.queue.shift() as { chunk: Buffer };
        lane.bytes -= chunk.length;
        if (!to.destroyed) to.write(chunk);
      }
      this.relieve(pair, direction);
      this.drainLater(pair, direction, to);
    }, Math.max(0, head.due - performance.now()));
  }

  private sourceOf(pair: Pair, direction: 'up' | 'down'): net.Socket | null {
    return direction === 'up' ? pair.down : pair.up;
  }

  /** Bytes one direction holds here: delayed, or written to a socket that has not sent them yet. */
  private held(pair: Pair, direction: 'up' | 'down'): number {
    const to = direction === 'up' ? pair.up : pair.down;
    return pair.lanes[direction].bytes + (to?.writableLength ?? 0);
  }

  /** A throttled direction that has drained to half its limit reads again (unless the link is cut). */
  private relieve(pair: Pair, direction: 'up' | 'down'): void {
    const lane = pair.lanes[direction];
    if (!lane.throttled || this.held(pair, direction) > LANE_LIMIT_BYTES / 2) return;
    lane.throttled = false;
    if (!this._cut) this.sourceOf(pair, direction)?.resume();
  }

  /** Bytes all connections of this link hold in this process (each direction bounded near LANE_LIMIT_BYTES). */
  get heldBytes(): number {
    let total = 0;
    for (const pair of this.pairs) total += this.held(pair, 'up') + this.held(pair, 'down');
    return total;
  }

  private freeze(pair: Pair): void {
    pair.down.pause();
    pair.up?.pause();
  }

  private thaw(pair: Pair): void {
    if (!pair.up) this.connectUp(pair);
    else {
      // A direction still too full stays paused; its drain resumes it.
      if (!pair.lanes.up.throttled) pair.down.resume();
      if (!pair.lanes.down.throttled) pair.up.resume();
    }
  }

  private drop(pair: Pair, reset = false): void {
    if (!this.pairs.delete(pair)) return;
    for (; pair.counted > 0; pair.counted--) this.sockets.give();
    for (const lane of [pair.lanes.up, pair.lanes.down]) {
      if (lane.timer) clearTimeout(lane.timer);
      lane.timer = null;
      lane.queue.length = 0;
      lane.bytes = 0;
    }
    if (reset) pair.down.resetAndDestroy();
    else pair.down.destroy();
    pair.up?.destroy();
  }

  /** Nothing to learn: this proxy asks its target at each connection. */
  refreshTarget(): void {}

  /** Ends every open connection through this link (e.g. when its node is killed or a client crashes). */
  resetConnections(): void {
    for (const pair of [...this.pairs]) this.drop(pair, true);
  }

  async cutLink(mode: LinkCutMode): Promise<void> {
    if (this._cut) throw new LabOperationError('conflict', `${this.name} is already cut (${this._cut})`);
    this._cut = mode;
    if (mode === 'blackhole') {
      for (const pair of this.pairs) this.freeze(pair);
      return;
    }
    const server = this.server;
    this.server = null;
    this.countListener(false);
    this.resetConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async heal(): Promise<void> {
    const mode = this._cut;
    if (!mode) throw new LabOperationError('conflict', `${this.name} is not cut`);
    if (mode === 'refuse' && !this.closed && this._port !== 0) {
      // Listen on the same port again, so clients that retry find the link where it was.
      try {
        await this.start();
      } catch (error) {
        throw new LabOperationError('internal', `${this.name} could not listen on port ${this._port} again: ${(error as Error).message}`);
      }
    }
    this._cut = null;
    for (const pair of [...this.pairs]) this.thaw(pair);
  }

  setDelay(delayMs: number, jitterMs = 0): void {
    this._delayMs = delayMs;
    this._jitterMs = jitterMs;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const server = this.server;
    this.server = null;
    this.countListener(false);
    this.resetConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    if (this._port !== 0) releaseLinkPort(this._port);
  }
}
