/**
 * Polices one node against what a learner's code can do to it that Redis
 * itself does not bound:
 *
 * - a script that never ends: past `busy-reply-threshold` the node answers
 *   BUSY to everyone (other clients, other learners' runs in this lab, the
 *   lab's monitor) until someone sends SCRIPT KILL. A cheap PING on the
 *   control connection sees that BUSY; the guard then kills the script, or,
 *   when Redis refuses because the script already wrote (UNKILLABLE),
 *   restarts the node (SIGKILL + start on the same port and folder).
 * - memory Redis does not count: Lua's heap is outside maxmemory, so the
 *   guard reads the process's RSS from /proc and restarts a node over budget.
 *
 * It never acts on a node that is not `up` (paused by the nemesis answers
 * nothing, which is not BUSY; down has no process), and the restart itself
 * goes through the lab (its queue, in the node's turn), which checks again
 * that the node is still that same process and still up: the guard never
 * fights a fault a learner injected.
 *
 * How often it looks follows the lab (`node.busy`). While a run goes, every
 * `periodMs` (250 ms), as it always did. Once the lab is idle, only learner
 * code can make a node BUSY, and no learner connection is left to send
 * anything: a run's end closes every connection of its clients (the sandbox
 * worker's `Requests.closeAll`, worker/connection.ts `destroy`, or the
 * worker's termination when the pool kills the run), and a link proxy whose
 * learner side closes drops the bytes it still holds for a delay and closes
 * its socket to the node (link-proxy.ts `drop`). What can still reach the node
 * is a script already running, or sent just before (in a socket buffer, a
 * paused node's receive queue, a worker whose termination is on its way). So
 * after the lab goes idle, and after an idle node comes up again (resumed:
 * what it had queued runs now), the guard keeps its 250 ms rhythm until the
 * node has answered once more than QUIET_GRACE_MS later: a node that answers
 * at all runs no endless script that arrived before, and the grace covers
 * bytes still on their way when the run ended (an answer right at the idle
 * moment could come just before a late EVAL). From then on it looks every
 * `idlePeriodMs` (RSS from /proc) and PINGs only a node that answered nothing
 * in that long
 * (the key monitor's idle safety-net samples answer every few seconds, so
 * that PING is the net for the rare script that slipped past the answer).
 * Its timer is a timeout it sets again at each look: an idle node costs one
 * wake per `idlePeriodMs`, none while it is paused or down.
 */
import fs from 'node:fs';
import type { InterventionAction, InterventionCause } from '@/lib/cluster';
import { BUSY_REPLY_THRESHOLD_MS } from './redis-config';
import type { RedisNode } from './redis-node';
import { historySaid } from '@/lib/history-said';
import { words, type Said, type Words } from '@/lib/words';

export interface NodeGuardOptions {
  /** A node whose RSS passes this many MiB is restarted (LOCKLAB_NODE_RSS_MB). */
  rssBudgetMb: number;
  /** How often the guard looks at the node while a run goes in its lab (and just after), ms. */
  periodMs: number;
  /** How often it looks at a node of an idle lab, ms (default IDLE_PERIOD_MS). */
  idlePeriodMs?: number;
}

const detailOf = (said: Said): Pick<Intervention, 'detail' | 'detailWords'> => ({ detail: said.message, detailWords: said.words });

export const DEFAULT_NODE_GUARD: NodeGuardOptions = { rssBudgetMb: 192, periodMs: 250 };

export interface Intervention {
  action: InterventionAction;
  cause: InterventionCause;
  /** What happened, in words a learner understands (shown on the card and in the history). */
  detail: string;
  /** The same as data, for a page in another language. */
  detailWords: Words;
  /** For `memory`: what the node used and its budget, MiB. */
  rssMb?: number;
  budgetMb?: number;
}

/** What the guard needs from its lab. */
export interface NodeGuardHost {
  /**
   * Restarts the node in its turn of the lab's queue, unless it is no longer
   * process `pid` or no longer up by then. Resolves whether it did.
   */
  restart(node: RedisNode, pid: number, why: Words): Promise<boolean>;
  record(node: RedisNode, intervention: Intervention): void;
}

const MIB = 1024 * 1024;
/** How often the guard reads a node's resident memory while a run goes, ms. */
const RSS_EVERY_MS = 1_000;
/** How often it looks at (reads RSS of) a node of an idle lab, ms. */
export const IDLE_PERIOD_MS = 10_000;
/** After the lab went idle (or the node came up), an answer shows the node calm only from this much later, ms. */
export const QUIET_GRACE_MS = 1_000;

/** Resident memory of a process in bytes, from /proc/<pid>/status (VmRSS, in kB); null if unknown. */
export function residentBytes(pid: number): number | null {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match ? Number(match[1]) * 1024 : null;
}

/** Which KILL a BUSY reply asks for: a function (FCALL) needs FUNCTION KILL, a script SCRIPT KILL. */
export function killCommandFor(busyMessage: string): 'SCRIPT' | 'FUNCTION' {
  return /FUNCTION KILL/i.test(busyMessage) ? 'FUNCTION' : 'SCRIPT';
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class NodeGuard {
  private timer: NodeJS.Timeout | null = null;
  private probing = false;
  /** An intervention under way: no new probe or check until it is over. */
  private acting = false;
  private disposed = false;
  private rssReadAt = -Infinity;
  /** performance.now() QUIET_GRACE_MS after the lab last went idle or the node last came up: an answer after it shows the node calm. */
  private calmAfter: number;

  constructor(
    private readonly node: RedisNode,
    private readonly options: NodeGuardOptions,
    private readonly host: NodeGuardHost,
  ) {
    this.calmAfter = performance.now() + QUIET_GRACE_MS;
    node.on('busy', (busy) => {
      if (!busy) this.calmAfter = performance.now() + QUIET_GRACE_MS;
      this.lookIn(options.periodMs);
    });
    node.on('state', ({ state }) => {
      if (state !== 'up') return;
      this.calmAfter = performance.now() + QUIET_GRACE_MS;
      this.lookIn(options.periodMs);
    });
    this.lookIn(options.periodMs);
  }

  /** Whether the node is watched at `periodMs`: a run goes, or the lab is idle but the node has not shown it calm yet. */
  private get close(): boolean {
    return this.node.busy || this.node.lastAnsweredAt <= this.calmAfter;
  }

  private lookIn(ms: number): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.tick();
      // Paused or down, the node is looked at again when it comes up (the state event), not before.
      if (this.node.state === 'up' || this.acting) this.lookIn(this.close || this.acting ? this.options.periodMs : this.idlePeriodMs);
    }, ms);
    this.timer.unref();
  }

  private get idlePeriodMs(): number {
    return this.options.idlePeriodMs ?? IDLE_PERIOD_MS;
  }

  private tick(): void {
    if (this.disposed || this.acting || this.node.state !== 'up') return;
    const pid = this.node.pid;
    if (pid === null) return;
    const now = performance.now();
    const close = this.close;
    // Reading /proc is a system call on the server's loop for every node of every lab: once a second is
    // soon enough for memory while a run goes (it grows by what a script allocates, not in a blink); an idle
    // node, where nothing of a learner's runs any more, is read at each of its slow looks.
    if (!close || now - this.rssReadAt >= RSS_EVERY_MS) {
      this.rssReadAt = now;
      const rss = residentBytes(pid);
      if (rss !== null && rss > this.options.rssBudgetMb * MIB) {
        void this.act(() => this.restartForMemory(pid, rss));
        return;
      }
    }
    // A node that just answered the lab (its key monitor samples it while keys change) was not BUSY:
    // the probe is only for nodes that went quiet.
    if (now - this.node.lastAnsweredAt < (close ? this.options.periodMs : this.idlePeriodMs)) return;
    this.probe(pid);
  }

  /** One PING at a time on the control connection; only a BUSY answer means anything here. */
  private probe(pid: number): void {
    const client = this.node.controlClient;
    if (this.probing || !client) return;
    this.probing = true;
    client
      .ping()
      .then(
        () => this.node.answered(),
        (error: unknown) => {
          const text = message(error);
          // A paused node times out, a dying one closes: neither is BUSY.
          if (/^BUSY/.test(text) && !this.disposed && this.node.state === 'up' && this.node.pid === pid) {
            void this.act(() => this.stopScript(pid, text));
          }
        },
      )
      .finally(() => {
        this.probing = false;
      });
  }

  private async act(intervention: () => Promise<void>): Promise<void> {
    if (this.acting) return;
    this.acting = true;
    try {
      await intervention();
    } catch {
      // A node dying or restarted meanwhile: the next tick looks again.
    } finally {
      this.acting = false;
    }
  }

  private async stopScript(pid: number, busyMessage: string): Promise<void> {
    const client = this.node.controlClient;
    if (!client) return;
    const kind = killCommandFor(busyMessage);
    const after = { words: words('history.guard.busy', { seconds: BUSY_REPLY_THRESHOLD_MS / 1000 }) };
    try {
      await client.call(kind, 'KILL');
    } catch (error) {
      const text = message(error);
      if (/^NOTBUSY/.test(text)) return; // it ended by itself meanwhile
      if (!/^UNKILLABLE/.test(text)) throw error;
      // The script wrote: Redis will not undo half a script, so only a restart stops it.
      const restarted = await this.host.restart(this.node, pid, words('history.guard.whyUnkillable'));
      if (restarted) {
        this.host.record(this.node, {
          action: 'restarted',
          cause: 'unkillable-script',
          ...detailOf(historySaid('guard.restartedUnkillable', { after })),
        });
      }
      return;
    }
    this.host.record(this.node, { action: 'script-killed', cause: 'busy-script', ...detailOf(historySaid('guard.stopped', { kind, after })) });
  }

  private async restartForMemory(pid: number, rss: number): Promise<void> {
    const rssMb = Math.round(rss / MIB);
    const budgetMb = this.options.rssBudgetMb;
    const restarted = await this.host.restart(this.node, pid, words('history.guard.whyMemory', { rssMb: String(rssMb), budgetMb: String(budgetMb) }));
    if (restarted) {
      this.host.record(this.node, {
        action: 'restarted',
        cause: 'memory',
        ...detailOf(historySaid('guard.restartedMemory', { rssMb: String(rssMb), budgetMb: String(budgetMb) })),
        rssMb,
        budgetMb,
      });
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
