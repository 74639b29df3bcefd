/**
 * Owns every lab of this server: creates them on demand (up to a cap),
 * counts who is attached, destroys a lab after it has had no viewer for the
 * idle period, and stops them all on shutdown.
 */
import path from 'node:path';
import type { Topology } from '@/lib/cluster';
import { LabOperationError } from '@/lib/result';
import { Lab, newLabId } from './lab';

export interface LabManagerOptions {
  dir: string;
  maxLabs: number;
  idleMs: number;
}

export class LabManager {
  private readonly labs = new Map<string, Lab>();
  private readonly viewers = new Map<string, Set<string>>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  /** Labs being created count against the cap too, so a burst of joins cannot overshoot it. */
  private starting = 0;
  private closing = false;

  constructor(private readonly options: LabManagerOptions) {}

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
    if (this.closing) throw new LabOperationError('lab-full', 'The lab server is shutting down');
    if (this.labs.size + this.starting >= this.options.maxLabs)
      throw new LabOperationError('lab-full', `The lab server is full (${this.options.maxLabs} labs running). Try again in a few minutes.`);
    this.starting++;
    try {
      const id = newLabId();
      const lab = new Lab({ id, topology, clients, dir: path.join(this.options.dir, `lab-${id}`) });
      await lab.start();
      this.labs.set(id, lab);
      this.viewers.set(id, new Set());
      lab.once('closed', () => this.forget(id));
      this.armIdle(id); // a lab nobody attaches to still goes away
      return lab;
    } finally {
      this.starting--;
    }
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
    const timer = setTimeout(() => void this.destroy(labId, 'closed after being idle with no tab connected'), this.options.idleMs);
    timer.unref();
    this.idleTimers.set(labId, timer);
  }

  private forget(id: string): void {
    this.labs.delete(id);
    this.viewers.delete(id);
    const timer = this.idleTimers.get(id);
    if (timer) clearTimeout(timer);
    this.idleTimers.delete(id);
  }

  async destroy(id: string, reason: string): Promise<void> {
    const lab = this.labs.get(id);
    if (lab) await lab.destroy(reason);
  }

  async closeAll(reason = 'the lab server is shutting down'): Promise<void> {
    this.closing = true;
    await Promise.all(this.all().map((lab) => lab.destroy(reason)));
  }
}
