/**
 * Owns every lab of this server: creates them on demand (up to a cap, and up
 * to a few per browser), counts who is attached, destroys a lab after it has
 * had no viewer for the idle period, and stops them all on shutdown.
 *
 * A full server does not turn a newcomer away at once: the newcomer waits
 * (LOCKLAB_LAB_WAIT_MS) and is served first by a lab no tab is attached to,
 * then by one nothing has happened in for LOCKLAB_LAB_YIELD_IDLE_MS — taken
 * from the browser holding the most labs, its longest idle — and its tab is
 * told why in words. Waiters holding fewer labs are served first. So a
 * stranger holding every lab it could get keeps none that it does not use,
 * however many identities it paid for.
 */
import path from 'node:path';
import { serverDescriptors } from '../ops/descriptors';
import type { Topology } from '@/lib/cluster';
import { DEFAULT_CLIENTS, DEFAULT_TOPOLOGY, sameTopology } from '@/lib/cluster';
import { LabOperationError, type ErrorText } from '@/lib/result';
import type { NodeGuardOptions } from '../cluster/node-guard';
import { labsCreatedTotal } from '../ops/metrics';
import { refuse } from '../ops/refusals';
import type { HistoryBudget } from './history-log';
import { Lab, newLabId } from './lab';
import { refusal } from '@/lib/refusal-words';

export interface LabManagerOptions {
  dir: string;
  maxLabs: number;
  idleMs: number;
  /** Labs of the default topology kept started in reserve, so a new tab gets its nodes at once. */
  warmLabs?: number;
  /** How every lab polices its nodes (busy scripts, memory budget). */
  nodeGuard?: NodeGuardOptions;
  /** Each lab's history budget (defaults: DEFAULT_HISTORY_BUDGET). */
  history?: Partial<HistoryBudget>;
  /** How long a browser asking for a lab at a full server waits for one to come free (0: refused at once). */
  waitMs?: number;
  /** A lab nothing happened in (no command, no run) for this long yields to a waiting newcomer. */
  yieldIdleMs?: number;
}

/** A browser's claim on a lab: its own (a tab's), or a spare borrowed by its Check or Explore. */
interface Holding {
  browser: string;
  kind: 'own' | 'spare';
}

/** A browser waiting at a full server for a lab to come free. */
interface LabWaiter {
  browser: string;
  since: number;
  /** true: a slot is reserved for it (`reserved`); false: it waited too long. */
  settle(served: boolean): void;
}

/** How often waiters are looked at again while nothing closes: labs grow idle with time. */
const WAIT_POLL_MS = 1_000;

/**
 * A class opens its labs together: when this many labs were handed out within DEMAND_WINDOW_MS, the reserve
 * holds BURST_EXTRA more. One lab in reserve refills in ~150 ms on two cores (five redis-servers), so joins
 * a few hundred ms apart — a room of learners opening the page — found it empty and waited for a cold start
 * (bench/class-load: 100 learners arriving within 30 s, a cold join under that load takes 0.2–0.6 s).
 */
const BURST_JOINS = 3;
const DEMAND_WINDOW_MS = 10_000;
const BURST_EXTRA = 4;

export class LabManager {
  private readonly labs = new Map<string, Lab>();
  private readonly viewers = new Map<string, Set<string>>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  /** Labs being created count against the cap too, so a burst of joins cannot overshoot it. */
  private starting = 0;
  private closing = false;
  /** Started labs nobody owns yet; they count against the cap like any other. */
  private readonly warm: Lab[] = [];
  private readonly warming = new Set<Promise<void>>();
  /** Labs by the browser that holds them (own and spare); classroom labs have no holder and are not counted. */
  private readonly holders = new Map<string, Holding>();
  /** When something last happened in each lab (a command from a tab, a run starting or ending). */
  private readonly lastActive = new Map<string, number>();
  /** When each lab last lost its last tab (while it has none). */
  private readonly detachedAt = new Map<string, number>();
  /** Labs being closed for a waiter: their slot is already counted as `reserved`. */
  private readonly yielding = new Set<string>();
  /** Slots handed to waiters whose lab is not started yet. */
  private reserved = 0;
  private readonly waiters: LabWaiter[] = [];
  private waitPoll: NodeJS.Timeout | null = null;
  /** Whether a lab has a run going (set by the socket layer, which owns runs): a busy lab is never idle. */
  private busy: (lab: Lab) => boolean = () => false;
  /** When labs were last handed out (at most BURST_JOINS kept: all the reserve's depth needs). */
  private readonly handedOut: number[] = [];
  /** Labs a browser is starting right now: they count against its share, so parallel joins cannot overshoot it. */
  private readonly startingFor = new Map<string, number>();

  constructor(private readonly options: LabManagerOptions) {
    this.refill();
  }

  private get used(): number {
    return this.labs.size + this.starting + this.warm.length + this.warming.size + this.reserved - this.yielding.size;
  }

  /** How the manager tells a lab with a run going (never idle) from one nothing happens in. */
  setBusyProbe(busy: (lab: Lab) => boolean): void {
    this.busy = busy;
  }

  /** Something happened in the lab (a command from a tab, a run started or ended): it is not idle. */
  touch(labId: string): void {
    if (this.labs.has(labId)) this.lastActive.set(labId, performance.now());
  }

  /** How many labs the reserve aims at: the operator's figure, deeper while labs are being handed out fast. */
  private reserveTarget(): number {
    const base = this.options.warmLabs ?? 0;
    // An operator who turned the reserve off keeps it off.
    if (base === 0) return 0;
    const oldest = this.handedOut.length >= BURST_JOINS ? this.handedOut[0]! : -Infinity;
    return performance.now() - oldest <= DEMAND_WINDOW_MS ? base + BURST_EXTRA : base;
  }

  private handedOutNow(): void {
    this.handedOut.push(performance.now());
    if (this.handedOut.length > BURST_JOINS) this.handedOut.shift();
  }

  /**
   * Tops the reserve up in the background, never past the cap, one lab at a time: the next learner waits for
   * the first one ready, and three started together were each ready only when all three were (~0.4 s here).
   */
  private refill(): void {
    const want = this.reserveTarget();
    // Waiters come first: a reserve lab would take the slot one of them is waiting for. Only the web server's
    // reserve of descriptors left: no lab is started in advance. A learner's join starting its lab cold comes
    // first too: a reserve lab started beside it would share the cores with it (each cold start refills after).
    if (this.closing || this.waiters.length > 0 || this.starting > 0 || this.warming.size > 0 || serverDescriptors.short) return;
    if (this.warm.length >= want || this.used >= this.options.maxLabs) return;
    const id = newLabId();
    const lab = new Lab({ id, topology: DEFAULT_TOPOLOGY, clients: DEFAULT_CLIENTS, dir: path.join(this.options.dir, `lab-${id}`), nodeGuard: this.options.nodeGuard, history: this.options.history });
    const warming: Promise<void> = lab
      .start()
      .then(
        async () => {
          if (this.closing) {
            await lab.destroy();
            return;
          }
          this.warm.push(lab);
          this.warming.delete(warming);
          // The next one, if the reserve still wants it (a start that failed is not retried in a loop).
          this.refill();
        },
        (error: unknown) => console.error('[locklab] could not start a warm lab:', (error as Error).message),
      )
      .finally(() => this.warming.delete(warming));
    this.warming.add(warming);
  }

  /** Started labs waiting in reserve. */
  get reserve(): number {
    return this.warm.length;
  }

  get size(): number {
    return this.labs.size;
  }

  get(id: string): Lab | undefined {
    return this.labs.get(id);
  }

  all(): Lab[] {
    return [...this.labs.values()];
  }

  /** A new lab if the server has room now (a reserve lab of another shape gives way); refused at once otherwise. */
  create(topology: Topology, clients: number): Promise<Lab> {
    return this.createWithin(topology, clients, null);
  }

  private async createWithin(topology: Topology, clients: number, waiter: { browser: string; context: { socket?: string } } | null): Promise<Lab> {
    if (this.closing) throw new LabOperationError('lab-full', refusal('lab.shuttingDown'));
    const warmIndex = this.warm.findIndex((lab) => sameTopology(lab.topology, topology) && !lab.closed);
    if (warmIndex >= 0) {
      const [lab] = this.warm.splice(warmIndex, 1) as [Lab];
      lab.clients = clients;
      this.adopt(lab);
      this.handedOutNow();
      // Right after this join's answer has left (the node host forks the nodes, not this loop).
      setTimeout(() => this.refill(), 0).unref();
      return lab;
    }
    let slotReserved = false;
    if (this.used >= this.options.maxLabs) {
      // A reserve lab of another topology gives way to a learner who needs a slot now.
      const spare = this.warm.shift();
      if (spare) await spare.destroy(refusal('closed.madeRoom'));
      else if (!waiter) throw new LabOperationError('lab-full', refusal('lab.full', { max: this.options.maxLabs }));
      else slotReserved = await this.waitForRoom(waiter.browser, waiter.context);
    }
    // Taken over synchronously from the reservation, so no other request sees the slot free in between.
    if (slotReserved) this.reserved--;
    // A lab's nodes, their control and monitor connections are this process's descriptors: the reserve is not theirs.
    if (serverDescriptors.short) throw refuse('descriptor-reserve', {}, refusal('lab.noDescriptors'));
    this.starting++;
    try {
      const id = newLabId();
      const lab = new Lab({ id, topology, clients, dir: path.join(this.options.dir, `lab-${id}`), nodeGuard: this.options.nodeGuard, history: this.options.history });
      await lab.start();
      this.adopt(lab);
      this.handedOutNow();
      // A cold start means the reserve was empty: top it up for the next one (a class arriving).
      setTimeout(() => this.refill(), 0).unref();
      return lab;
    } finally {
      this.starting--;
    }
  }

  /**
   * A new lab for `browser`, which may hold `limit` of them. At the limit,
   * its oldest lab with no tab attached is reclaimed to make room (a tab
   * closed a moment ago, not yet past its grace); if every one has a tab,
   * the browser is refused. Another browser's labs are never touched.
   */
  async createFor(
    browser: string,
    limit: number,
    topology: Topology,
    clients: number,
    context: { socket?: string } = {},
  ): Promise<Lab> {
    const owned = this.ownedBy(browser);
    const pending = this.startingFor.get(browser) ?? 0;
    let reclaim: Lab | undefined;
    if (owned.length + pending >= limit) {
      reclaim = owned.find((lab) => this.viewerCount(lab.id) === 0);
      if (!reclaim || owned.length - 1 + pending >= limit)
        throw refuse(
          'labs-per-browser',
          { browser, ...context, detail: { owned: owned.length, starting: pending, limit } },
          refusal('lab.perBrowser', { limit }),
        );
      // Decided synchronously: a parallel join of the same browser no longer sees this lab as its own.
      this.holders.delete(reclaim.id);
    }
    this.startingFor.set(browser, pending + 1);
    try {
      if (reclaim) await this.destroy(reclaim.id, refusal('closed.reclaimed'));
      const lab = await this.createWithin(topology, clients, { browser, context });
      this.holders.set(lab.id, { browser, kind: 'own' });
      return lab;
    } finally {
      const left = (this.startingFor.get(browser) ?? 1) - 1;
      if (left > 0) this.startingFor.set(browser, left);
      else this.startingFor.delete(browser);
    }
  }

  /**
   * A spare lab for `browser`'s Check or Explore, counted against its share:
   * it holds at most `limit` labs, own and spare together, however many checks
   * it starts at once. Never waits and never takes another's lab: a check
   * without spares grades in the learner's lab alone.
   */
  async createSpareFor(browser: string, limit: number, topology: Topology, clients: number): Promise<Lab> {
    const held = this.heldBy(browser).length + (this.startingFor.get(browser) ?? 0);
    if (held >= limit) throw new LabOperationError('lab-full', refusal('lab.perBrowser', { limit }));
    this.startingFor.set(browser, (this.startingFor.get(browser) ?? 0) + 1);
    try {
      const lab = await this.create(topology, clients);
      this.holders.set(lab.id, { browser, kind: 'spare' });
      return lab;
    } finally {
      const left = (this.startingFor.get(browser) ?? 1) - 1;
      if (left > 0) this.startingFor.set(browser, left);
      else this.startingFor.delete(browser);
    }
  }

  /** A browser's own labs, oldest first (the map keeps the order they were handed out in). */
  ownedBy(browser: string): Lab[] {
    return this.holdingsOf(browser, 'own');
  }

  /** Every lab a browser holds: its own and the spares its checks borrowed. */
  heldBy(browser: string): Lab[] {
    return this.holdingsOf(browser, null);
  }

  private holdingsOf(browser: string, kind: Holding['kind'] | null): Lab[] {
    const labs: Lab[] = [];
    for (const [id, holding] of this.holders) {
      const lab = this.labs.get(id);
      if (holding.browser === browser && (kind === null || holding.kind === kind) && lab && !lab.closed) labs.push(lab);
    }
    return labs;
  }

  /** The browser a lab counts against (own or spare); undefined for a classroom's lab or a reserve one. */
  ownerOf(labId: string): string | undefined {
    return this.holders.get(labId)?.browser;
  }

  /** Browsers waiting for a lab at a full server. */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Waits at a full server until a slot is reserved for `browser` (true) or
   * `waitMs` passes (refused in words). Other waiters holding fewer labs go first.
   */
  private waitForRoom(browser: string, context: { socket?: string }): Promise<true> {
    const waitMs = this.options.waitMs ?? 0;
    return new Promise<true>((resolve, reject) => {
      const refused = () =>
        refuse(
          'lab-wait',
          { browser, ...context, detail: { waitedMs: waitMs, max: this.options.maxLabs } },
          refusal('lab.waitedTooLong', { max: this.options.maxLabs, seconds: Math.round(waitMs / 1000) }),
        );
      const timer = setTimeout(() => {
        const index = this.waiters.indexOf(waiter);
        // Not waiting any more: a lab is being closed for it, and it is served when that is done.
        if (index < 0) return;
        this.waiters.splice(index, 1);
        waiter.settle(false);
      }, waitMs);
      timer.unref();
      const waiter: LabWaiter = {
        browser,
        since: performance.now(),
        settle: (served) => {
          clearTimeout(timer);
          if (served) resolve(true);
          else reject(refused());
        },
      };
      this.waiters.push(waiter);
      this.serveWaiters();
    });
  }

  /** Hands free slots, then labs that yield, to waiters: those holding the fewest labs first, then the earliest. */
  private serveWaiters(): void {
    while (this.waiters.length > 0 && !this.closing) {
      const held = (w: LabWaiter) => this.heldBy(w.browser).length + (this.startingFor.get(w.browser) ?? 1) - 1;
      this.waiters.sort((a, b) => held(a) - held(b) || a.since - b.since);
      const next = this.waiters[0]!;
      if (this.used < this.options.maxLabs) {
        this.waiters.shift();
        this.reserved++;
        next.settle(true);
        continue;
      }
      const victim = this.yieldable(next.browser);
      if (!victim) break;
      this.waiters.shift();
      this.reserved++;
      this.yielding.add(victim.lab.id);
      const owner = this.holders.get(victim.lab.id)?.browser;
      refuse('lab-yielded', { labId: victim.lab.id, ...(owner ? { browser: owner } : {}), detail: { for: next.browser, idleMs: Math.round(victim.idleMs) } }, victim.words);
      void this.destroy(victim.lab.id, victim.words).finally(() => next.settle(true));
    }
    // Labs grow idle as time passes: look again while anyone waits.
    if (this.waiters.length > 0 && !this.waitPoll) {
      this.waitPoll = setInterval(() => this.serveWaiters(), WAIT_POLL_MS);
      this.waitPoll.unref();
    } else if (this.waiters.length === 0 && this.waitPoll) {
      clearInterval(this.waitPoll);
      this.waitPoll = null;
    }
  }

  /**
   * The lab that gives way to a waiter, if any: one with no tab attached (the
   * longest without), else one nothing happened in for `yieldIdleMs` — of the
   * browser holding the most labs, its longest idle. Never the waiter's own, a
   * classroom's, a check's spare, or a lab with a run going.
   */
  private yieldable(claimant: string): { lab: Lab; idleMs: number; words: ErrorText } | null {
    const now = performance.now();
    let noTab: { lab: Lab; since: number } | null = null;
    let idle: { lab: Lab; held: number; idleMs: number } | null = null;
    const heldCount = new Map<string, number>();
    for (const [id, holding] of this.holders) {
      const lab = this.labs.get(id);
      if (!lab || lab.closed || this.yielding.has(id) || holding.kind !== 'own' || holding.browser === claimant) continue;
      const detached = this.detachedAt.get(id);
      if (detached !== undefined && this.viewerCount(id) === 0) {
        if (!noTab || detached < noTab.since) noTab = { lab, since: detached };
        continue;
      }
      if (this.busy(lab)) continue;
      const idleMs = now - (this.lastActive.get(id) ?? now);
      if (idleMs < (this.options.yieldIdleMs ?? Infinity)) continue;
      let held = heldCount.get(holding.browser);
      if (held === undefined) heldCount.set(holding.browser, (held = this.heldBy(holding.browser).length));
      if (!idle || held > idle.held || (held === idle.held && idleMs > idle.idleMs)) idle = { lab, held, idleMs };
    }
    if (noTab) return { lab: noTab.lab, idleMs: now - noTab.since, words: refusal('closed.yieldedNoTab') };
    if (idle) return { lab: idle.lab, idleMs: idle.idleMs, words: refusal('closed.yieldedIdle', { seconds: Math.round(idle.idleMs / 1000) }) };
    return null;
  }

  /** When something last happened in the lab (a command, a run started or ended, a tab attached): performance.now(). */
  lastActiveAt(labId: string): number {
    return this.lastActive.get(labId) ?? 0;
  }

  /** Tabs (and classrooms) attached to the lab now. */
  viewerCount(labId: string): number {
    return this.viewers.get(labId)?.size ?? 0;
  }

  /** Whether the lab's idle timer runs: no tab is attached, and it will be destroyed when the timer ends. */
  isIdle(labId: string): boolean {
    return this.idleTimers.has(labId);
  }

  private adopt(lab: Lab): void {
    labsCreatedTotal.inc();
    this.labs.set(lab.id, lab);
    this.viewers.set(lab.id, new Set());
    this.lastActive.set(lab.id, performance.now());
    lab.once('closed', () => {
      this.forget(lab.id);
      this.serveWaiters();
      this.refill();
    });
    this.armIdle(lab.id); // a lab nobody attaches to still goes away
  }

  attach(labId: string, viewer: string): void {
    const set = this.viewers.get(labId);
    if (!set) return;
    set.add(viewer);
    this.detachedAt.delete(labId);
    this.lastActive.set(labId, performance.now());
    const timer = this.idleTimers.get(labId);
    if (timer) clearTimeout(timer);
    this.idleTimers.delete(labId);
  }

  detach(labId: string, viewer: string): void {
    const set = this.viewers.get(labId);
    if (!set || !set.delete(viewer)) return;
    if (set.size === 0) {
      this.detachedAt.set(labId, performance.now());
      this.armIdle(labId);
      // A lab with no tab is the first to make room for someone waiting.
      if (this.waiters.length > 0) this.serveWaiters();
    }
  }

  private armIdle(labId: string): void {
    if (this.idleTimers.has(labId)) return;
    const timer = setTimeout(() => void this.destroy(labId, refusal('closed.idle')), this.options.idleMs);
    timer.unref();
    this.idleTimers.set(labId, timer);
  }

  private forget(id: string): void {
    this.labs.delete(id);
    this.viewers.delete(id);
    this.holders.delete(id);
    this.lastActive.delete(id);
    this.detachedAt.delete(id);
    this.yielding.delete(id);
    const timer = this.idleTimers.get(id);
    if (timer) clearTimeout(timer);
    this.idleTimers.delete(id);
  }

  async destroy(id: string, reason: ErrorText): Promise<void> {
    const lab = this.labs.get(id);
    if (lab) await lab.destroy(reason);
  }

  async closeAll(reason: ErrorText = refusal('closed.shuttingDown')): Promise<void> {
    this.closing = true;
    for (const waiter of this.waiters.splice(0)) waiter.settle(false);
    if (this.waitPoll) clearInterval(this.waitPoll);
    // A lab still warming destroys itself once started (it sees `closing`); wait for that.
    await Promise.all([...this.warming]);
    await Promise.all([...this.all(), ...this.warm.splice(0)].map((lab) => lab.destroy(reason)));
  }
}
