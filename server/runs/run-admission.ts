/**
 * Admission of learner runs to the machine: a server-wide memory budget for
 * everything runs can hold (each client's QuickJS heap at its cap, plus the
 * worker's own heap) and a bound on how many run at once. Two cores cannot
 * run sixty programs at once and keep any lesson's millisecond timing, so a
 * class pressing Run together gets served in turn, each told how many
 * programs are ahead; a run that would never fit, or a queue that is full,
 * is refused in words.
 *
 * Turns are fair across browsers, not first come: each browser (the lab's
 * holder; a classroom's lab is one of its own) has a share — runs at once and
 * memory — beyond which its runs wait, and the runs waiting are served round
 * robin: the browser running fewest first, and among those the one served
 * least recently. So a stranger who starts a dozen idle programs holds its
 * share and no more, and a bystander's run is next in line, not behind the
 * dozen. A browser's first run always fits its share.
 *
 * Identities cost work, not nothing, yet a few of them can still fill the
 * budget with idle programs that reserve much and do nothing. So a run that
 * is next in line and does not fit makes room: a run of a browser holding
 * more runs than the waiting one, that has had its slice (`sliceMs`) and was
 * started with Run (a check's or a search's runs are never cut), is stopped,
 * and its console says why. One at a time; the next only once it has ended.
 * Only for a browser that was not itself served within the slice: scripts
 * restarting their programs cannot cut each other's, which would keep every
 * run young and so out of reach of the bystander's claim.
 *
 * Memory is not the only thing runs share: thirteen five-client Redlock loops
 * fit the memory budget of this 2-core machine, and most of them then ran out
 * their wall clock waiting for a core. So past a floor of runs (`cpu.floor`,
 * always admitted), a run starts only while the cores are not saturated (CPU
 * pressure under `cpu.limit`), and one at a time, `cpu.settleMs` apart, so the
 * load each adds shows before the next is let in. Runs held back wait in the
 * same fair queue and hear their place in it.
 */
import { LabOperationError } from '@/lib/result';
import { refuse, type RefusalContext } from '../ops/refusals';
import { refusal } from '@/lib/refusal-words';

export interface RunAdmissionOptions {
  /** Bytes all admitted runs may reserve together. */
  memoryBudgetBytes: number;
  /** Runs admitted at once. */
  maxConcurrent: number;
  /** Runs that may wait; the next is refused. */
  maxQueued: number;
  /** How long a run may wait before it is refused. */
  maxWaitMs: number;
  /** One browser's share: runs at once and bytes reserved together (its first run always fits). Unbounded if absent. */
  perOwner?: { runs: number; memoryBytes: number };
  /** A run that has gone this long may be stopped for a waiting browser holding fewer runs; absent: never. */
  sliceMs?: number;
  /** Admission by CPU as well: past `floor` runs at once, only while `pressure()` is under `limit`, `settleMs` apart. Absent: by memory and count only. */
  cpu?: { floor: number; limit: number; settleMs: number; pressure: () => number | null };
  now?: () => number;
}

export interface Admitted {
  /** Gives the run's reservation back (idempotent). */
  release(): void;
  /**
   * Lets the admission stop this run for a waiting browser that holds fewer runs, once it has had its slice:
   * `stop` is told how long the run went, and must end it (its release follows).
   */
  yieldable(stop: (ranMs: number) => void): void;
}

/** A run admitted and not yet released. */
interface Running {
  owner: string;
  cost: number;
  startedAt: number;
  stop?: (ranMs: number) => void;
}

interface Waiter {
  owner: string;
  cost: number;
  context: RefusalContext;
  admit: (admitted: Admitted) => void;
  reject: (error: Error) => void;
  onAhead?: (ahead: number) => void;
  /** What it was last told. */
  ahead?: number;
  timer: NodeJS.Timeout;
}

const megabytes = (bytes: number) => Math.round(bytes / 2 ** 20);

/** Whose share a run counts against: the browser, else the lab (a classroom's), else one shared key. */
const ownerOf = (context: RefusalContext): string => (context.browser ? `browser:${context.browser}` : context.labId ? `lab:${context.labId}` : '-');

export class RunAdmission {
  private reserved = 0;
  private running = 0;
  /** Waiting runs per owner, first come first within an owner. */
  private readonly queues = new Map<string, Waiter[]>();
  /** Owners with runs waiting, in turn: the one served last goes to the back. */
  private rotation: string[] = [];
  private readonly held = new Map<string, { runs: number; bytes: number }>();
  private readonly runningRuns = new Set<Running>();
  /** When each owner last had a run admitted (pruned once older than a slice). */
  private readonly lastServed = new Map<string, number>();
  /** The run being stopped to make room, until it is released. */
  private stopping: Running | null = null;
  private recheck: NodeJS.Timeout | null = null;
  private recheckAt = Infinity;
  /** When the last run past the CPU floor was admitted. */
  private pastFloorAt = -Infinity;
  private readonly now: () => number;

  constructor(private readonly options: RunAdmissionOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  get active(): number {
    return this.running;
  }
  get waiting(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.length;
    return n;
  }
  get reservedBytes(): number {
    return this.reserved;
  }
  /** Runs the owner of `context` has going now. */
  runningFor(context: RefusalContext): number {
    return this.held.get(ownerOf(context))?.runs ?? 0;
  }

  /**
   * Resolves once the run may start, with its reservation; `onAhead` hears how many runs are ahead
   * while it waits. Rejects (with the learner's words) when it can never fit, the queue is full, or it
   * waited too long; and when `signal` aborts (the learner pressed Run again or Stop).
   */
  admit(cost: number, context: RefusalContext, onAhead?: (ahead: number) => void, signal?: AbortSignal): Promise<Admitted> {
    const { memoryBudgetBytes, maxQueued, maxWaitMs } = this.options;
    if (cost > memoryBudgetBytes)
      return Promise.reject(
        refuse('run-budget', { ...context, detail: { cost } }, refusal('run.budget', { cost: megabytes(cost), budget: megabytes(memoryBudgetBytes) })),
      );
    const owner = ownerOf(context);
    if (this.rotation.length === 0 && this.fits(cost) && this.withinShare(owner, cost)) return Promise.resolve(this.take(owner, cost));
    const waiting = this.waiting;
    if (waiting >= maxQueued)
      return Promise.reject(refuse('run-queue-full', { ...context, detail: { queued: waiting } }, refusal('run.queueFull', { n: waiting })));
    return new Promise<Admitted>((resolve, reject) => {
      const waiter: Waiter = {
        owner,
        cost,
        context,
        admit: resolve,
        reject,
        onAhead,
        timer: setTimeout(() => {
          this.remove(waiter);
          reject(refuse('run-budget', { ...context, detail: { waitedMs: maxWaitMs } }, refusal('run.waitedTooLong', { seconds: Math.round(maxWaitMs / 1000) })));
        }, maxWaitMs),
      };
      waiter.timer.unref();
      signal?.addEventListener('abort', () => {
        if (this.remove(waiter)) reject(new LabOperationError('conflict', refusal('run.replaced')));
      });
      const queue = this.queues.get(owner);
      if (queue) queue.push(waiter);
      else {
        this.queues.set(owner, [waiter]);
        this.rotation.push(owner);
      }
      this.pump();
    });
  }

  private fits(cost: number): boolean {
    return this.running < this.options.maxConcurrent && this.reserved + cost <= this.options.memoryBudgetBytes && this.coresHaveRoom();
  }

  /** Within the CPU floor; or past it, the last such admission has settled and the cores are not saturated. */
  private coresHaveRoom(): boolean {
    const cpu = this.options.cpu;
    if (!cpu || this.running < cpu.floor) return true;
    if (this.now() - this.pastFloorAt < cpu.settleMs) return false;
    const pressure = cpu.pressure();
    return pressure === null || pressure < cpu.limit;
  }

  /** When a run held back for the cores is looked at again (memory and count are looked at again as runs end). */
  private coresRecheckAt(): number | null {
    const cpu = this.options.cpu;
    if (!cpu || this.running < cpu.floor) return null;
    return Math.max(this.now(), this.pastFloorAt) + cpu.settleMs;
  }

  /** Whether the owner may start one more run of `cost` within its share (its first always may). */
  private withinShare(owner: string, cost: number): boolean {
    const share = this.options.perOwner;
    const held = this.held.get(owner);
    if (!share || !held || held.runs === 0) return true;
    return held.runs < share.runs && held.bytes + cost <= share.memoryBytes;
  }

  private take(owner: string, cost: number): Admitted {
    if (this.options.cpu && this.running >= this.options.cpu.floor) this.pastFloorAt = this.now();
    this.reserved += cost;
    this.running++;
    const held = this.held.get(owner) ?? { runs: 0, bytes: 0 };
    held.runs++;
    held.bytes += cost;
    this.held.set(owner, held);
    const entry: Running = { owner, cost, startedAt: this.now() };
    this.lastServed.delete(owner); // re-inserted last: the map stays in the order owners were served
    this.lastServed.set(owner, entry.startedAt);
    this.runningRuns.add(entry);
    let released = false;
    return {
      yieldable: (stop) => {
        if (!released) entry.stop = stop;
      },
      release: () => {
        if (released) return;
        released = true;
        this.runningRuns.delete(entry);
        if (this.stopping === entry) this.stopping = null;
        this.reserved -= cost;
        this.running--;
        held.runs--;
        held.bytes -= cost;
        if (held.runs === 0) this.held.delete(owner);
        this.pump();
      },
    };
  }

  private remove(waiter: Waiter): boolean {
    const queue = this.queues.get(waiter.owner);
    const index = queue?.indexOf(waiter) ?? -1;
    if (!queue || index < 0) return false;
    queue.splice(index, 1);
    if (queue.length === 0) this.dropOwner(waiter.owner);
    clearTimeout(waiter.timer);
    this.pump();
    return true;
  }

  /** Whether `a` is served before `b`: fewer runs going, then served longer ago (never: first). */
  private before(a: string, b: string): boolean {
    const runs = this.runsOf(a) - this.runsOf(b);
    if (runs !== 0) return runs < 0;
    return (this.lastServed.get(a) ?? -Infinity) < (this.lastServed.get(b) ?? -Infinity);
  }

  private runsOf(owner: string): number {
    return this.held.get(owner)?.runs ?? 0;
  }

  private dropOwner(owner: string): void {
    this.queues.delete(owner);
    this.rotation = this.rotation.filter((o) => o !== owner);
  }

  /**
   * Admits waiting runs, one per owner in turn, the owner running fewest first. An owner at its share is
   * passed over (it waits for its own runs); the owner chosen, if its run does not fit the server, stops
   * the round, so a big run is never overtaken forever by small ones.
   */
  private pump(): void {
    for (;;) {
      // Of the owners not at their share: the one running fewest runs; among equals, the one served least recently.
      let next: string | undefined;
      for (const owner of this.rotation)
        if (this.withinShare(owner, this.queues.get(owner)![0]!.cost) && (next === undefined || this.before(owner, next))) next = owner;
      if (next === undefined) break;
      const queue = this.queues.get(next)!;
      const waiter = queue[0]!;
      if (!this.fits(waiter.cost)) {
        const recheck = this.coresRecheckAt();
        if (recheck !== null) this.pumpAt(recheck);
        this.makeRoomFor(next);
        break;
      }
      queue.shift();
      clearTimeout(waiter.timer);
      this.rotation = this.rotation.filter((o) => o !== next);
      if (queue.length > 0) this.rotation.push(next);
      else this.queues.delete(next);
      waiter.admit(this.take(next, waiter.cost));
    }
    this.announce();
  }

  /**
   * Stops one run for `owner`'s waiting run: of a browser holding more runs than `owner`, that has had its
   * slice and may be stopped — the browser holding most first, then the biggest, then the oldest. When the
   * only candidates are still within their slice, looks again when the first of them has had it.
   */
  private makeRoomFor(owner: string): void {
    const sliceMs = this.options.sliceMs;
    if (sliceMs === undefined || this.stopping) return;
    const now = this.now();
    this.forgetServedBefore(now - sliceMs);
    // Served within the slice: it had its turn; cutting another's run for it would only churn.
    const served = this.lastServed.get(owner);
    if (served !== undefined && served > now - sliceMs) {
      this.pumpAt(served + sliceMs);
      return;
    }
    const mine = this.runsOf(owner);
    let victim: Running | null = null;
    let soonest = Infinity;
    for (const run of this.runningRuns) {
      if (!run.stop || run.owner === owner || this.runsOf(run.owner) <= mine) continue;
      const ripeAt = run.startedAt + sliceMs;
      if (ripeAt > now) {
        soonest = Math.min(soonest, ripeAt);
        continue;
      }
      if (
        !victim ||
        this.runsOf(run.owner) > this.runsOf(victim.owner) ||
        (this.runsOf(run.owner) === this.runsOf(victim.owner) && (run.cost > victim.cost || (run.cost === victim.cost && run.startedAt < victim.startedAt)))
      )
        victim = run;
    }
    if (victim) {
      this.stopping = victim;
      victim.stop!(now - victim.startedAt);
      return;
    }
    if (soonest < Infinity) this.pumpAt(soonest);
  }

  /** Looks at the waiting runs again at `at` (the earliest of the times asked for). */
  private pumpAt(at: number): void {
    if (this.recheck && this.recheckAt <= at) return;
    if (this.recheck) clearTimeout(this.recheck);
    this.recheckAt = at;
    this.recheck = setTimeout(() => {
      this.recheck = null;
      this.pump();
    }, Math.max(0, at - this.now()) + 1);
    this.recheck.unref();
  }

  /**
   * Owners gone quiet (nothing running, nothing waiting) and served longer ago than `before` are
   * forgotten, so the map stays small; one still waiting keeps its place behind those never served.
   */
  private forgetServedBefore(before: number): void {
    for (const [owner, at] of this.lastServed) {
      if (at >= before) break;
      if (!this.held.has(owner) && !this.queues.has(owner)) this.lastServed.delete(owner);
    }
  }

  /** Each waiting run hears how many are ahead of it: those running, and those served before it in turn. */
  private announce(): void {
    const order: Waiter[] = [];
    for (let round = 0; order.length < this.waiting; round++)
      for (const owner of this.rotation) {
        const waiter = this.queues.get(owner)?.[round];
        if (waiter) order.push(waiter);
      }
    order.forEach((waiter, i) => {
      // Told only when it changes: every admission elsewhere would otherwise repeat it to every tab.
      if (waiter.ahead === i + this.running) return;
      waiter.ahead = i + this.running;
      waiter.onAhead?.(waiter.ahead);
    });
  }
}
