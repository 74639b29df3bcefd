/**
 * The monitor's subscription to one node's keyspace notifications, read on the
 * web server's one event loop — bounded, because what a node notifies is the
 * learner's to make: every key their program writes is one notification, and a
 * Lua script of 20,000 SETs is 20,000 of them (about 1.5 MB) at once. Parsed
 * by ioredis, one message at a time into strings and events, four labs doing
 * that gave the loop a p99 lag near a second and a bystander's tiny run 5 s.
 *
 * So this is a bare socket, not a client:
 * - a notification is only a wake-up: the monitor re-reads every key in one
 *   sample, so which key changed does not matter. What arrives is counted
 *   (natively, `Buffer.indexOf`) and dropped, never parsed or kept; all that
 *   arrives in one tick is one wake (a burst on one key, or on a thousand, is
 *   one refresh, and the sample itself is paced by sample-budget.ts);
 * - past `perSecond` notifications within a second the node is unsubscribed
 *   for the next second (the view is refreshed by the periodic sample instead),
 *   so a flood costs the loop at most that many plus what the node had
 *   already queued for us — at worst one script's worth, and never more than
 *   Redis's output limit for a subscriber, past which it closes us;
 * - memory here is one socket read at a time: nothing is buffered.
 * A closed connection (Redis's output limit, a node restart) is opened again by
 * the monitor while the node is up.
 */
import net from 'node:net';
import { log } from '../ops/log';

/** Notifications one node may send the monitor within a second before it is unsubscribed for the next one. */
export const NOTIFICATIONS_PER_SECOND = 1_000;
const WINDOW_MS = 1_000;
const PATTERN = '__keyspace@0__:*';
/** The name of every notification message in RESP (`*4\r\n$8\r\npmessage\r\n…`): counting it counts notifications. */
const MESSAGE_MARK = Buffer.from('$8\r\npmessage\r\n');

/** What one node's subscription has seen, for tests and operators. */
export interface NotificationCounts {
  /** Notifications read (counted, not parsed). */
  received: number;
  /** Wakes handed to the monitor: at most one per tick. */
  wakes: number;
  /** Times the node passed its share and was unsubscribed for a second. */
  mutes: number;
}

export interface KeyspaceSubscriberOptions {
  port: number;
  username: string;
  password: string;
  /** Something changed on the node (one call per tick at most). */
  onWake: () => void;
  /** The connection is gone (the node closed it or died); not called after `close()`. */
  onClosed: () => void;
  perSecond?: number;
  counts: NotificationCounts;
}

/** One RESP command as Redis reads it. */
function resp(...args: string[]): string {
  return `*${args.length}\r\n` + args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('');
}

export class KeyspaceSubscriber {
  private readonly socket: net.Socket;
  private closed = false;
  private wakePending = false;
  private windowStart = performance.now();
  private inWindow = 0;
  private muteTimer: NodeJS.Timeout | null = null;
  /** The last bytes of the previous read: a mark may straddle two reads. */
  private tail: Buffer = Buffer.alloc(0);
  /** The node's first answer (AUTH) has been looked at. */
  private greeted = false;
  private readonly perSecond: number;

  constructor(private readonly options: KeyspaceSubscriberOptions) {
    this.perSecond = options.perSecond ?? NOTIFICATIONS_PER_SECOND;
    const socket = net.connect({ host: '127.0.0.1', port: options.port });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('error', () => {
      /* the node died or closed us: 'close' follows, and the node's state event tells the story */
    });
    socket.on('close', () => {
      this.clearMute();
      if (!this.closed) options.onClosed();
      this.closed = true;
    });
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.write(
      resp('AUTH', options.username, options.password) +
        resp('CLIENT', 'SETNAME', 'locklab-monitor') +
        // Like the control connection: client eviction (maxmemory-clients) is for the learner's connections.
        resp('CLIENT', 'NO-EVICT', 'on') +
        resp('PSUBSCRIBE', PATTERN),
    );
  }

  private read(chunk: Buffer): void {
    if (!this.greeted) {
      this.greeted = true;
      // The lab's own credentials refused: the view then follows the periodic sample alone, and an operator should know.
      if (chunk[0] === 0x2d /* '-' */) log.error({ event: 'monitor-subscribe-refused', reply: chunk.toString('latin1', 0, Math.min(chunk.length, 120)).split('\r\n')[0] }, 'node refused the monitor');
    }
    let n = 0;
    for (let at = chunk.indexOf(MESSAGE_MARK); at !== -1; at = chunk.indexOf(MESSAGE_MARK, at + MESSAGE_MARK.length)) n += 1;
    const keep = MESSAGE_MARK.length - 1;
    if (this.tail.length > 0 && Buffer.concat([this.tail, chunk.subarray(0, keep)]).includes(MESSAGE_MARK)) n += 1;
    this.tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - keep)));
    if (n === 0) return;
    this.options.counts.received += n;
    this.count(n);
    if (this.wakePending) return;
    this.wakePending = true;
    setImmediate(() => {
      this.wakePending = false;
      if (this.closed) return;
      this.options.counts.wakes += 1;
      this.options.onWake();
    });
  }

  /** Counts notifications against this second's share; past it, unsubscribes for a second. */
  private count(n: number): void {
    const now = performance.now();
    if (now - this.windowStart >= WINDOW_MS) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    this.inWindow += n;
    if (this.inWindow <= this.perSecond || this.muteTimer || this.closed) return;
    this.options.counts.mutes += 1;
    this.socket.write(resp('PUNSUBSCRIBE', PATTERN));
    this.muteTimer = setTimeout(() => {
      this.muteTimer = null;
      if (this.closed) return;
      this.windowStart = performance.now();
      this.inWindow = 0;
      this.socket.write(resp('PSUBSCRIBE', PATTERN));
      // What changed while we were not listening is read now.
      this.options.onWake();
    }, WINDOW_MS);
    this.muteTimer.unref();
  }

  private clearMute(): void {
    if (this.muteTimer) clearTimeout(this.muteTimer);
    this.muteTimer = null;
  }

  close(): void {
    this.closed = true;
    this.clearMute();
    this.socket.destroy();
  }
}
