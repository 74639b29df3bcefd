/**
 * Owns every lab of this server: creates them on demand (up to a cap, and up
 * to a few per browser), counts who is attached, destroys a lab after it has
 * had no viewer for the idle period, and stops them all on shutdown.
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
}

const REFILL_DELAY_MS = 250;


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
  /** Own labs by the browser that created them; classroom labs have no owner and are not counted. */
  private readonly owners = new Map<string, string>();
  /** Labs a browser is starting right now: they count against its share, so parallel joins cannot overshoot it. */
  private readonly startingFor = new Map<string, number>();

  constructor(private readonly options: LabManagerOptions) {
    this.refill();
  }

  private get used(): number {
    return this.labs.size + this.starting + this.warm.length + this.warming.size;
  }

  /** Tops the reserve up in the background, never past the cap. */
  private refill(): void {
    const want = this.options.warmLabs ?? 0;
    // Only the web server's reserve of descriptors left: no lab is started in advance.
    while (!this.closing && !serverDescriptors.short && this.warm.length + this.warming.size < want && this.used < this.options.maxLabs) {
      const id = newLabId();
      const lab = new Lab({ id, topology: DEFAULT_TOPOLOGY, clients: DEFAULT_CLIENTS, dir: path.join(this.options.dir, `lab-${id}`), nodeGuard: this.options.nodeGuard, history: this.options.history });
      const warming: Promise<void> = lab
        .start()
        .then(
          async () => {
            if (this.closing) await lab.destroy();
            else this.warm.push(lab);
          },
          (error: unknown) => console.error('[locklab] could not start a warm lab:', (error as Error).message),
        )
        .finally(() => this.warming.delete(warming));
      this.warming.add(warming);
    }
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

  async create(topology: Topology, clients: number): Promise<Lab> {
    if (this.closing) throw new LabOperationError('lab-full', refusal('lab.shuttingDown'));
    const warmIndex = this.warm.findIndex((lab) => sameTopology(lab.topology, topology) && !lab.closed);
    if (warmIndex >= 0) {
      const [lab] = this.warm.splice(warmIndex, 1) as [Lab];
      lab.clients = clients;
      this.adopt(lab);
      // Spawning five processes blocks the event loop for a few ms each: let this join's answer leave first.
      setTimeout(() => this.refill(), REFILL_DELAY_MS).unref();
      return lab;
    }
    if (this.used >= this.options.maxLabs) {
      // A reserve lab of another topology gives way to a learner who needs a slot now.
      const spare = this.warm.shift();
      if (!spare) throw new LabOperationError('lab-full', refusal('lab.full', { max: this.options.maxLabs }));
      await spare.destroy(refusal('closed.madeRoom'));
    }
    // A lab's nodes, their control and monitor connections are this process's descriptors: the reserve is not theirs.
    if (serverDescriptors.short) throw refuse('descriptor-reserve', {}, refusal('lab.noDescriptors'));
    this.starting++;
    try {
      const id = newLabId();
      const lab = new Lab({ id, topology, clients, dir: path.join(this.options.dir, `lab-${id}`), nodeGuard: this.options.nodeGuard, history: this.options.history });
      await lab.start();
      this.adopt(lab);
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
      this.owners.delete(reclaim.id);
    }
    this.startingFor.set(browser, pending + 1);
    try {
      if (reclaim) await this.destroy(reclaim.id, refusal('closed.reclaimed'));
      const lab = await this.create(topology, clients);
      this.owners.set(lab.id, browser);
      return lab;
    } finally {
      const left = (this.startingFor.get(browser) ?? 1) - 1;
      if (left > 0) this.startingFor.set(browser, left);
      else this.startingFor.delete(browser);
    }
  }

  /** A browser's own labs, oldest first (the map keeps the order they were handed out in). */
  ownedBy(browser: string): Lab[] {
    const labs: Lab[] = [];
    for (const [id, owner] of this.owners) {
      const lab = this.labs.get(id);
      if (owner === browser && lab && !lab.closed) labs.push(lab);
    }
    return labs;
  }

  ownerOf(labId: string): string | undefined {
    return this.owners.get(labId);
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
    lab.once('closed', () => {
      this.forget(lab.id);
      this.refill();
    });
    this.armIdle(lab.id); // a lab nobody attaches to still goes away
  }

  attach(labId: string, viewer: string): void {
    const set = this.viewers.get(labId);
    if (!set) return;
    set.add(viewer);
    const timer = this.idleTimers.get(labId);
    if (timer) clearTimeout(timer);
    this.idleTimers.delete(labId);
  }

  detach(labId: string, viewer: string): void {
    const set = this.viewers.get(labId);
    if (!set || !set.delete(viewer)) return;
    if (set.size === 0) this.armIdle(labId);
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
    this.owners.delete(id);
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
    // A lab still warming destroys itself once started (it sees `closing`); wait for that.
    await Promise.all([...this.warming]);
    await Promise.all([...this.all(), ...this.warm.splice(0)].map((lab) => lab.destroy(reason)));
  }
}
